import type { AiTask } from '../ai/index.js';
import { wholeAudioIn } from '../delivery/index.js';
import type { TranslationServiceOptions } from './options.js';
import type { Listeners } from './ports.js';
import { SpeechStream, type SpeechContext, type SpeechOwner } from './speech-stream.js';
import { ClientVoice, type TranslationSpeaker } from './client-voice.js';
import type { Job } from './types.js';

/*
 * Which translations are being spoken: one stream per message and language, made when its translation
 * starts; a streamed voice clip's streams are made by its first committed sentence and taken over by the
 * clip's message, whose sentences then continue the clip's `seq`. Speech is made only for a language
 * someone in the room listens in (decision 0137), asked once per stream; a count that cannot be read
 * counts as someone listening. The whole WAV of a message's speech is made only while a client that takes
 * it (one before sentence-by-sentence speech) listens in the language. A language the engine has no voice
 * for is spoken by its listeners' browsers (client-voice.ts).
 */

export interface ClipSpeaker {
  clipId: string;
  userId: string;
  username: string;
}

/** What the streams read of the context the message tasks share, beside what each stream reads. */
export interface SpeechStreamsContext extends SpeechContext {
  options: TranslationServiceOptions;
  languages: readonly string[];
  supported: (task: AiTask, language: string) => boolean;
  listeners?: Listeners;
}

export function createSpeechStreams(ctx: () => SpeechStreamsContext) {
  const clips = new Map<string, SpeechStream>();
  const keyOf = (roomId: string, clipId: string, language: string) =>
    `${roomId}\u0000${clipId}\u0000${language}`;

  function listening(roomId: string, language: string): Promise<boolean> {
    const { listeners, logger } = ctx();
    if (!listeners) return Promise.resolve(true);
    return listens(listeners, roomId, language).catch((error: unknown) => {
      logger.warn({ err: error, roomId, language }, 'translation: listeners unknown; speaking anyway');
      return true;
    });
  }

  function speaks(language: string): boolean {
    const { options, supported } = ctx();
    return options.speech && supported('speech', language);
  }

  function make(owner: SpeechOwner): SpeechStream {
    const { roomId, language } = owner;
    // asked when the WAV would be made: a listener who joined meanwhile gets it
    const wholeAudio = () => listening(roomId, wholeAudioIn(language));
    return new SpeechStream(ctx(), owner, listening(roomId, language), wholeAudio);
  }

  return {
    /** The speaker of `job`'s translation into `language` (its clip's, when it has one); undefined: none. */
    open(job: Job, language: string): TranslationSpeaker | undefined {
      if (!speaks(language)) {
        // speech is on but the engine has no voice for the language: the listeners' browsers speak it
        if (!ctx().options.speech) return undefined;
        return new ClientVoice(ctx().output, job, language, listening(job.roomId, language));
      }
      const { roomId, message } = job;
      const key = message.clipId && keyOf(roomId, message.clipId, language);
      const clip = key ? clips.get(key) : undefined;
      if (key && clip) {
        clips.delete(key);
        clip.adopt(job);
        return clip;
      }
      const { userId } = job.author;
      return make({ roomId, language, userId, username: message.username, job });
    },
    /** A committed sentence of a streamed clip, translated into `language`: spoken now. */
    clipSentence(roomId: string, clip: ClipSpeaker, language: string, translation: string): void {
      if (!speaks(language)) return;
      const key = keyOf(roomId, clip.clipId, language);
      let stream = clips.get(key);
      if (!stream) {
        const { clipId, userId, username } = clip;
        stream = make({ roomId, language, userId, username, clipId });
        clips.set(key, stream);
      }
      stream.pushSentences(translation);
    },
    /** The clip ended without a message: its sentences are not spoken further. */
    dropClip(roomId: string, clipId: string): void {
      for (const language of ctx().languages) {
        const key = keyOf(roomId, clipId, language);
        clips.get(key)?.cancel();
        clips.delete(key);
      }
    },
  };
}
export type SpeechStreams = ReturnType<typeof createSpeechStreams>;

async function listens(listeners: Listeners, roomId: string, language: string): Promise<boolean> {
  return listeners.listens(roomId, language);
}

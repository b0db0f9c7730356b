import type { ServerFrame } from '@xtalk/protocol';
import type { AiProvider, Logger } from '../ai/index.js';
import { AiError } from '../ai/index.js';
import type { EngineCall } from './engine-call.js';
import { roomGlossary, termsOf } from './glossary.js';
import type { GlossaryPort } from './ports.js';

/*
 * Translation before the speaker stops. Each sentence a streamed clip's transcription commits is
 * translated at once into the room's other languages; its chunks go to the room as translationChunk with
 * the clipId and originalTimestamp 0 (the message does not exist yet). When the clip's message is stored,
 * its translation into each language is the committed sentences' translations, then the tail's: only the
 * tail is left to translate, and one translationComplete carries the whole.
 */

export interface ClipSentenceJob {
  roomId: string;
  userId: string;
  username: string;
  text: string;
  sourceLanguage: string;
  targetLanguage: string;
}

export interface ClipTranslatorDeps {
  languages: readonly string[];
  /** The service's engine path (cache, meter, timeout, retries); `onPiece` gets each streamed piece. */
  translate(job: ClipSentenceJob, onPiece: (piece: string) => Promise<void>): Promise<string>;
  send(roomId: string, frame: ServerFrame): Promise<void>;
  /** A committed sentence's translation is complete (it is spoken now, before the message). */
  onTranslated?(roomId: string, clip: ClipSpeakerRef, target: string, text: string): void;
  logger: Logger;
  /** A clip whose message never comes is forgotten after this long (ms). */
  forgetAfterMs?: number;
}

export interface ClipSpeakerRef {
  clipId: string;
  userId: string;
  username: string;
}

interface ClipPieces {
  language: string;
  /** The committed source sentences, in order. */
  sentences: string[];
  /** Per target: the translations of those sentences, each settled in order (undefined: failed). */
  targets: Map<string, Promise<string | undefined>[]>;
  timer: NodeJS.Timeout;
}

/** How translations of consecutive sentences are joined: no space in scripts written without spaces. */
export function joinerFor(language: string): string {
  return /^(ja|zh|th|lo|my|km)\b/u.test(language) ? '' : ' ';
}

/** What `text` says after the given sentences (whitespace between them ignored); undefined if it differs. */
export function afterSentences(text: string, sentences: readonly string[]): string | undefined {
  let at = 0;
  for (const sentence of sentences) {
    while (at < text.length && /\s/u.test(text[at]!)) at += 1;
    if (!text.startsWith(sentence, at)) return undefined;
    at += sentence.length;
  }
  return text.slice(at).trim();
}

export function createClipTranslator(deps: ClipTranslatorDeps) {
  const clips = new Map<string, ClipPieces>();
  const keyOf = (roomId: string, clipId: string) => `${roomId}\u0000${clipId}`;

  function forget(key: string): void {
    const clip = clips.get(key);
    if (!clip) return;
    clearTimeout(clip.timer);
    clips.delete(key);
  }

  function clipSentence(
    roomId: string,
    clip: { clipId: string; userId: string; username: string; language: string },
    sentence: string,
  ): void {
    const key = keyOf(roomId, clip.clipId);
    let pieces = clips.get(key);
    if (pieces && pieces.language !== clip.language) return;
    if (!pieces) {
      const timer = setTimeout(() => clips.delete(key), deps.forgetAfterMs ?? 5 * 60_000);
      timer.unref?.();
      pieces = { language: clip.language, sentences: [], targets: new Map(), timer };
      clips.set(key, pieces);
    }
    pieces.sentences.push(sentence);
    for (const target of deps.languages) {
      if (target === clip.language) continue;
      const list = pieces.targets.get(target) ?? [];
      pieces.targets.set(target, list);
      const before = list.at(-1) ?? Promise.resolve('');
      const first = list.length === 0;
      // one sentence after another per language, so the chunks of the clip arrive in reading order
      const translated = before.then(async () => {
        let lead = first ? '' : joinerFor(target);
        try {
          const text = await deps.translate(
            {
              roomId,
              userId: clip.userId,
              username: clip.username,
              text: sentence,
              sourceLanguage: clip.language,
              targetLanguage: target,
            },
            async (chunk) => {
              await deps.send(roomId, {
                type: 'translationChunk',
                originalTimestamp: 0,
                targetLanguage: target,
                chunk: `${lead}${chunk}`,
                clipId: clip.clipId,
              });
              lead = '';
            },
          );
          deps.onTranslated?.(roomId, clip, target, text.trim());
          return text.trim();
        } catch (error) {
          deps.logger.warn(
            { err: error, roomId, clipId: clip.clipId, target },
            'clip sentence not translated',
          );
          return undefined;
        }
      });
      list.push(translated);
    }
  }

  /**
   * For the clip's stored message: the translation of its committed head into `target` and the tail
   * still to translate; undefined when nothing usable was translated early (then the whole is translated).
   */
  async function head(
    roomId: string,
    clipId: string,
    message: { language: string; text: string },
    target: string,
  ): Promise<{ translation: string; tail: string; joiner: string } | undefined> {
    const clip = clips.get(keyOf(roomId, clipId));
    if (!clip || clip.language !== message.language) return undefined;
    const tail = afterSentences(message.text, clip.sentences);
    if (tail === undefined) return undefined;
    const parts = await Promise.all(clip.targets.get(target) ?? []);
    if (parts.length === 0 || parts.some((part) => part === undefined || part === '')) return undefined;
    const joiner = joinerFor(target);
    return { translation: parts.join(joiner), tail, joiner };
  }

  return {
    clipSentence,
    head,
    /** The message's translations are done (or the clip was dropped). */
    dropClip: (roomId: string, clipId: string) => forget(keyOf(roomId, clipId)),
  };
}
export type ClipTranslator = ReturnType<typeof createClipTranslator>;

/**
 * One committed sentence through the service's engine path: supported check, meter (characters, like any
 * translation), timeout and retries; pieces streamed as they come (a retry is not streamed again).
 */
export async function translateSentence(
  deps: {
    provider: AiProvider;
    callEngine: EngineCall;
    supported: (task: 'translation', language: string) => boolean;
    /** The room glossaries, read per sentence: a change applies from the next one on. */
    glossary?: GlossaryPort;
    logger: Logger;
  },
  job: ClipSentenceJob,
  onPiece: (piece: string) => Promise<void>,
): Promise<string> {
  if (!deps.supported('translation', job.targetLanguage)) {
    throw new AiError(`no translation engine for ${job.targetLanguage}`, { retryable: false });
  }
  let streamed = false;
  const glossary = await roomGlossary(deps.glossary, job.roomId, deps.logger);
  return deps.callEngine(
    'translation',
    {
      userId: job.userId,
      username: job.username,
      roomId: job.roomId,
      task: 'translation',
      characters: [...job.text].length,
      language: job.targetLanguage,
    },
    async (signal) => {
      const live = !streamed;
      let text = '';
      for await (const piece of deps.provider.translate({
        text: job.text,
        sourceLanguage: job.sourceLanguage,
        targetLanguage: job.targetLanguage,
        context: [],
        glossary: termsOf(glossary, job.text, job.targetLanguage),
        signal,
      })) {
        if (signal.aborted) throw signal.reason;
        text += piece;
        if (live && piece) {
          streamed = true;
          await onPiece(piece);
        }
      }
      if (text.trim() === '')
        throw new AiError('the AI engine returned an empty translation', { retryable: true });
      return text;
    },
  );
}

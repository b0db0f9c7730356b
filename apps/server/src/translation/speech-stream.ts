import { AiError, type AiProvider, type Logger } from '../ai/index.js';
import { encodeWav, isWav, readWavInfo, wavToMonoFloat32, wavToOggOpus } from '../audio/index.js';
import { afterSentences } from './clip-translator.js';
import type { EngineCall } from './engine-call.js';
import { characters, chargeKeyOf, digest } from './engine-usage.js';
import type { LruCache } from './lru.js';
import type { ReportFailure } from './notices.js';
import type { RoomOutput } from './ports.js';
import type { SpeechSlots } from './speech-slots.js';
import { createSentenceSplitter, splitSentences } from './sentences.js';
import type { Job, PipelineEvent } from './types.js';

/*
 * One translation spoken sentence by sentence (decision 0158). Each sentence is synthesised, charged to the
 * author, as soon as it is complete, while the translation still streams; the sentences go to the
 * language's listeners in order as `speech` frames with their Ogg/Opus. The latest sentence waits for the
 * next one (or the end) before it is sent, so that the final one carries `last`. Listeners of an older
 * protocol get the sentences' audio as one WAV once the translation is spoken, made only while one of them
 * is in the room. The first failure (a sentence the author cannot pay for, an engine that fails) ends the
 * speaking: one notice, no later sentence.
 */

/** What a stream reads of the context its message's tasks share (task-context.ts). */
export interface SpeechContext {
  provider: AiProvider;
  output: RoomOutput;
  logger: Logger;
  audioCache: LruCache<Uint8Array>;
  speechSlots: SpeechSlots;
  emit: (event: Omit<PipelineEvent, 'at'>) => void;
  callEngine: EngineCall;
  reportFailure: ReportFailure;
}

export interface SpeechOwner {
  roomId: string;
  language: string;
  userId: string;
  username: string;
  /** The message; undefined while its voice clip is still spoken (then `clipId`). */
  job?: Job;
  clipId?: string;
}

interface Sentence {
  seq: number;
  audio: Promise<{ wav: Uint8Array; ogg: Uint8Array } | undefined>;
}

export class SpeechStream {
  private readonly splitter = createSentenceSplitter();
  private readonly said: string[] = [];
  private readonly wavs: Uint8Array[] = [];
  private held: Sentence | undefined;
  private sending: Promise<void> = Promise.resolve();
  /** Nothing more is sent. */
  private stopped = false;
  /** The first sentence that could not be made: neither it nor any after it is spoken. */
  private failedAt: number | undefined;
  private failure: unknown;

  constructor(
    private readonly ctx: SpeechContext,
    private readonly owner: SpeechOwner,
    /** Whether anyone listens in the language; asked once, before the first sentence is made. */
    private readonly listening: Promise<boolean>,
    /** Whether a listener who takes the speech as one WAV is in the room; asked once it is spoken. */
    private readonly wholeAudio: () => Promise<boolean> = () => Promise.resolve(true),
  ) {}

  /** The message's job takes over a clip's stream: its later sentences carry the message's id. */
  adopt(job: Job): void {
    this.owner.job = job;
    if (this.failure !== undefined) this.report(this.failure);
    this.failure = undefined;
  }

  /** A piece of the translation as it streams. */
  push(piece: string): void {
    for (const sentence of this.splitter.push(piece)) this.say(sentence);
  }

  /** Complete sentences (a clip sentence's translation). */
  pushSentences(text: string): void {
    for (const sentence of splitSentences(text)) this.say(sentence);
  }

  /**
   * The translation is complete (`fullText`; undefined when it failed): what of it was not yet said is
   * spoken, the final sentence marked `last`; then the WAV for older listeners. Resolves once all is sent.
   */
  async finish(fullText: string | undefined): Promise<void> {
    if (fullText !== undefined) {
      const rest = afterSentences(fullText, this.said);
      for (const sentence of rest === undefined ? [] : splitSentences(rest)) this.say(sentence);
    }
    const held = this.held;
    this.held = undefined;
    if (held) this.send(held, true);
    await this.sending;
    await this.sendWav();
  }

  /** Nothing more is made or sent (the text was corrected, the clip dropped). */
  cancel(): void {
    this.stopped = true;
    this.held = undefined;
  }

  private say(sentence: string): void {
    if (this.stopped || this.failedAt !== undefined) return;
    this.said.push(sentence);
    const seq = this.said.length - 1;
    const audio = this.synthesise(sentence, seq);
    audio.catch(() => undefined);
    const before = this.held;
    this.held = { seq, audio };
    if (before) this.send(before, false);
  }

  private send(sentence: Sentence, last: boolean): void {
    this.sending = this.sending.then(async () => {
      const audio = await sentence.audio;
      const { job, roomId, language, clipId, username } = this.owner;
      if (!audio || this.stopped || job?.superseded) return;
      if (this.failedAt !== undefined && sentence.seq > this.failedAt) return;
      this.wavs.push(audio.wav);
      const id = job?.message.id ?? 0;
      await this.ctx.output.sendSpeech(
        roomId,
        language,
        { id, seq: sentence.seq, last, ...(clipId ? { clipId } : {}) },
        audio.ogg,
        username,
      );
      this.ctx.emit({ kind: 'audio', roomId, messageId: id, language });
    });
  }

  private async synthesise(
    text: string,
    seq: number,
  ): Promise<{ wav: Uint8Array; ogg: Uint8Array } | undefined> {
    const { ctx, owner } = this;
    if (!(await this.listening) || this.stopped || this.failedAt !== undefined) return undefined;
    const key = digest(['speech', owner.language, text]);
    try {
      let wav = ctx.audioCache.get(key);
      if (!wav) {
        wav = await ctx.speechSlots.run(owner.roomId, () => this.speak(text, seq));
        ctx.audioCache.set(key, wav);
      }
      return { wav, ogg: await wavToOggOpus(wav) };
    } catch (error) {
      if (!this.stopped) this.fail(error, seq);
      return undefined;
    }
  }

  /** One sentence's engine call, charged to the author (it holds a speech slot meanwhile). */
  private speak(text: string, seq: number): Promise<Uint8Array> {
    const { ctx, owner } = this;
    return ctx.callEngine(
      'speech',
      {
        userId: owner.userId,
        username: owner.username,
        roomId: owner.roomId,
        task: 'speech',
        characters: characters(text),
        language: owner.language,
        ...(owner.job ? { messageId: owner.job.message.id } : {}),
        ...chargeKeyOf(owner.job, 'speech', owner.language, seq),
      },
      async (signal) => {
        const audio = await ctx.provider.synthesize({ text, language: owner.language, signal });
        if (!isWav(audio))
          throw new AiError('the speech engine returned audio that is not WAV', { retryable: false });
        return audio;
      },
      owner.job?.stop?.signal,
    );
  }

  private fail(error: unknown, seq: number): void {
    if (this.failedAt !== undefined) {
      this.failedAt = Math.min(this.failedAt, seq);
      return;
    }
    this.failedAt = seq;
    if (this.owner.job) this.report(error);
    else this.failure = error;
  }

  private report(error: unknown): void {
    if (this.owner.job) this.ctx.reportFailure(this.owner.job, 'speech', this.owner.language, error);
  }

  /** The sentences' audio as one WAV, for listeners of an older protocol (as before sentences). */
  private async sendWav(): Promise<void> {
    const { job, roomId, language, username } = this.owner;
    const first = this.wavs[0] && readWavInfo(this.wavs[0]);
    if (!first || !job || job.superseded || this.stopped) return;
    if (!(await this.wholeAudio())) return;
    const parts = this.wavs.map((wav) => wavToMonoFloat32(wav, first.sampleRate) ?? new Float32Array(0));
    const samples = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) {
      samples.set(part, at);
      at += part.length;
    }
    try {
      await this.ctx.output.sendAudio(roomId, language, encodeWav(samples, first.sampleRate), username);
    } catch (error) {
      this.ctx.logger.error({ err: error, roomId, language }, 'translation: spoken translation not sent');
    }
  }
}

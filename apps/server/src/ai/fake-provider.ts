import type {
  AiProvider,
  AiTask,
  NoteRequest,
  SpeechRequest,
  SummaryRequest,
  TranscribeOptions,
  Transcription,
  TranslateRequest,
} from './provider.js';
import { AiError, languageFromScript } from './provider.js';
import { sineWav } from '../audio/index.js';
import { createFakeStream } from './fake-stream.js';
import { applyRenderings } from './glossary-text.js';
import type { TranscriptionStream, TranscriptionStreamOptions } from './transcription-stream.js';

/*
 * Deterministic provider for tests, e2e and the bench; never chosen by AI_PROVIDER=auto.
 * - translation: `[ja] <text>` streamed word by word (or in exactly `chunks` pieces), `chunkDelayMs` apart,
 *   the room glossary's terms written as their renderings;
 * - summary: `[ja] summary of N messages: <name>: <text> | ...`, streamed word by word;
 * - note: only for texts containing the word `idiom` or the marker `!hint`;
 * - speech: a 16 kHz mono PCM16 sine tone, 0.05 s per character (0.2 s to 2 s), but for `voiceless`
 *   languages;
 * - transcription: decodes `XTALK-TRANSCRIPT:<lang>:<text>` found in the audio bytes, else a fixed text.
 * A text containing `!fail` makes every translation of it fail (retryable), `!failall` its hint too (an
 * engine that is down), `!slow` adds `slowMs` per chunk.
 */

export interface FakeProviderOptions {
  /** Delay before each translation chunk (ms). Default 0. */
  chunkDelayMs?: number;
  /** Delay before the first translation chunk instead (ms): an engine's time to first token. */
  firstChunkDelayMs?: number;
  /** Split every translation into exactly this many chunks (for the bench); default one per word. */
  chunks?: number;
  /** Extra delay per chunk for texts containing `!slow`. Default 5000. */
  slowMs?: number;
  /** Fixed latency of note, speech and transcription calls (ms). Default 0. */
  latencyMs?: number;
  /** Speech's own latency instead (ms): an engine's time to the first byte of audio. */
  speechLatencyMs?: number;
  /** Text returned by transcribe when the audio carries no marker. */
  transcript?: string;
  /** Streaming transcription: delay of each scripted delta after the audio that holds it (ms). Default 0. */
  deltaLatencyMs?: number;
  /** Streaming transcription: audio per scripted word (s). Default 0.3. */
  secondsPerWord?: number;
  /** False: whole clips only (clip mode). Default true. */
  streaming?: boolean;
  /** Languages it has no voice for (an engine without one, as the local engine for Japanese). */
  voiceless?: readonly string[];
}

export interface FakeCall {
  task: AiTask;
  text: string;
  language?: string;
  startedAt: number;
  finishedAt?: number;
}

export const FAKE_TRANSCRIPT_MARKER = 'XTALK-TRANSCRIPT:';

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function fakeTranslation(text: string, targetLanguage: string): string {
  return `[${targetLanguage}] ${text}`;
}

function splitInto(text: string, count: number): string[] {
  const pieces: string[] = [];
  const size = Math.max(1, Math.ceil(text.length / count));
  for (let i = 0; i < count; i += 1) pieces.push(text.slice(i * size, (i + 1) * size));
  return pieces;
}

export class FakeProvider implements AiProvider {
  readonly name = 'fake' as const;
  /** Every call made, in order (tests and the bench read it). */
  readonly calls: FakeCall[] = [];

  constructor(private readonly options: FakeProviderOptions = {}) {}

  supports(task: AiTask, language?: string): boolean {
    if (task !== 'speech' || language === undefined) return true;
    return !this.options.voiceless?.includes(language.split('-')[0] ?? language);
  }

  private record(task: AiTask, text: string, language?: string): FakeCall {
    const call: FakeCall = { task, text, language, startedAt: performance.now() };
    this.calls.push(call);
    return call;
  }

  async *translate(request: TranslateRequest): AsyncIterable<string> {
    const call = this.record('translation', request.text, request.targetLanguage);
    const full = fakeTranslation(
      applyRenderings(request.text, request.glossary ?? []),
      request.targetLanguage,
    );
    yield* this.stream(call, full, request.text, request.signal);
  }

  summarize(request: SummaryRequest): AsyncIterable<string> {
    const lines = request.messages.map((m) => `${m.username}: ${m.text}`);
    const text = applyRenderings(lines.join(' | '), request.glossary ?? []);
    const call = this.record('summary', text, request.language);
    const full = `[${request.language}] summary of ${lines.length} messages: ${text}`;
    return this.stream(call, full, text, request.signal);
  }

  /** `full` in pieces, `chunkDelayMs` apart; `!slow` and `!fail` in `source` slow it down or fail it. */
  private async *stream(
    call: FakeCall,
    full: string,
    source: string,
    signal: AbortSignal | undefined,
  ): AsyncIterable<string> {
    const request = { text: source, signal };
    const pieces = this.options.chunks
      ? splitInto(full, this.options.chunks)
      : (full.match(/\S+\s*/gu) ?? [full]);
    const delay =
      (this.options.chunkDelayMs ?? 0) + (request.text.includes('!slow') ? (this.options.slowMs ?? 5000) : 0);
    for (const [index, piece] of pieces.entries()) {
      await sleep(
        index === 0 && this.options.firstChunkDelayMs !== undefined ? this.options.firstChunkDelayMs : delay,
        request.signal,
      );
      if (request.text.includes('!fail') && index === 1) {
        throw new AiError('fake provider failure (!fail)', { retryable: true });
      }
      yield piece;
    }
    if (request.text.includes('!fail'))
      throw new AiError('fake provider failure (!fail)', { retryable: true });
    call.finishedAt = performance.now();
  }

  async note(request: NoteRequest): Promise<string | null> {
    const call = this.record('note', request.text, request.noteLanguage);
    await sleep(this.options.latencyMs ?? 0, request.signal);
    if (request.text.includes('!failall'))
      throw new AiError('fake provider failure (!failall)', { retryable: true });
    call.finishedAt = performance.now();
    if (!/\bidiom\b|!hint/iu.test(request.text)) return null;
    return `[${request.noteLanguage}] note: this message uses an idiom.`;
  }

  async synthesize(request: SpeechRequest): Promise<Uint8Array> {
    const call = this.record('speech', request.text, request.language);
    await sleep(this.options.speechLatencyMs ?? this.options.latencyMs ?? 0, request.signal);
    call.finishedAt = performance.now();
    const seconds = Math.min(2, Math.max(0.2, [...request.text].length * 0.05));
    return sineWav(seconds, request.language === 'ja' ? 660 : 440);
  }

  async transcribe(audio: Uint8Array, options: TranscribeOptions = {}): Promise<Transcription> {
    const call = this.record('transcription', `${audio.length} bytes`, options.languageHint);
    await sleep(this.options.latencyMs ?? 0, options.signal);
    call.finishedAt = performance.now();
    return this.script(audio, options.languageHint);
  }

  streamingTranscription() {
    return this.options.streaming === false ? (false as const) : ('scripted' as const);
  }

  startTranscription(options: TranscriptionStreamOptions): TranscriptionStream {
    this.record('transcription', 'stream', options.languageHint);
    return createFakeStream({
      ...options,
      script: (head) => this.script(head, options.languageHint),
      deltaLatencyMs: this.options.deltaLatencyMs ?? 0,
      secondsPerWord: this.options.secondsPerWord ?? 0.3,
    });
  }

  /** The transcript a clip carries in its Opus comment header, else the configured text. */
  private script(audio: Uint8Array, languageHint?: string): Transcription {
    const options = { languageHint };
    const content = Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength).toString('utf8');
    const at = content.indexOf(FAKE_TRANSCRIPT_MARKER);
    if (at >= 0) {
      const rest = content.slice(at + FAKE_TRANSCRIPT_MARKER.length);
      // stop at the first control character: in an Opus comment header the next field's length follows
      const match = /^([a-z]{2,3}):([^\p{Cc}]*)/u.exec(rest);
      if (match?.[1] && match[2] !== undefined) return { language: match[1], text: match[2].trim() };
    }
    const text = this.options.transcript ?? 'hello from the fake transcriber';
    return { text, language: options.languageHint ?? languageFromScript(text) ?? 'en' };
  }
}

export function createFakeProvider(options: FakeProviderOptions = {}): FakeProvider {
  return new FakeProvider(options);
}

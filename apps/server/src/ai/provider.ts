import type { FastifyBaseLogger } from 'fastify';
import type { AiTaskName } from '@xtalk/protocol';
import type {
  StreamingMode,
  Transcription,
  TranscriptionStream,
  TranscriptionStreamOptions,
} from './transcription-stream.js';

export type { Transcription } from './transcription-stream.js';

/*
 * The AI engines behind translation, hints, speech and transcription. One interface, three providers:
 * `openai` (any OpenAI-compatible API), `local` (transformers.js in-process) and `fake` (tests, e2e, bench).
 * Providers only talk to engines: retries, timeouts, metering, caching and room notices live in
 * src/translation/service.ts, so every provider gets the same guarantees.
 */

export type Logger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'debug'>;

/**
 * The protocol names them too, for notices about them (frames.ts AI_TASKS); a summary is asked for by one
 * person and answered to them alone, so no room notice is ever about it.
 */
export type AiTask = AiTaskName | 'summary';

/** An earlier message of the room, given to the engine so names, pronouns and tone carry over. */
export interface ContextMessage {
  username: string;
  language: string;
  text: string;
}

/** A room glossary's term found in a text, and what the target language must say for it. */
export interface GlossaryTerm {
  term: string;
  rendering: string;
}

export interface TranslateRequest {
  text: string;
  sourceLanguage: string;
  targetLanguage: string;
  /** Oldest first. */
  context: ContextMessage[];
  /** The room glossary's terms that occur in `text`, longest first; absent or empty: none. */
  glossary?: GlossaryTerm[];
  signal?: AbortSignal;
}

/** "Catch me up": a summary of `messages` (oldest first) written in `language`. */
export interface SummaryRequest {
  messages: ContextMessage[];
  language: string;
  /** The room glossary's terms that occur in the messages, rendered for `language`. */
  glossary?: GlossaryTerm[];
  signal?: AbortSignal;
}

export interface NoteRequest {
  text: string;
  sourceLanguage: string;
  /** The language the note is written in (a listener's language). */
  noteLanguage: string;
  context: ContextMessage[];
  signal?: AbortSignal;
}

export interface SpeechRequest {
  text: string;
  language: string;
  signal?: AbortSignal;
}

export interface TranscribeOptions {
  /** The speaker's chosen language; engines may still detect another. */
  languageHint?: string;
  /** MIME type of `audio` (default audio/ogg; the client records Ogg/Opus). */
  mimeType?: string;
  signal?: AbortSignal;
}

/** Status of an engine that loads before it can serve (the local provider's models). */
export type ProviderStatus =
  | { kind: 'loading'; task: AiTask; model: string; percent: number }
  | { kind: 'ready'; task: AiTask; model: string }
  | { kind: 'failed'; task: AiTask; model: string; message: string };

export interface AiProvider {
  readonly name: 'openai' | 'local' | 'fake';
  /** Whether this provider can do `task` (for `language`, the target/spoken language) at all. */
  supports(task: AiTask, language?: string): boolean;
  /**
   * Why a task the provider has an engine for cannot run here (a machine too small for its model), for
   * the rooms to be told; undefined when it can, or when `supports` says all there is to say.
   */
  unsupportedReason?(task: AiTask): string | undefined;
  /** Streams the translation in pieces; the concatenation is the full translation. */
  translate(request: TranslateRequest): AsyncIterable<string>;
  /** A short hint about nuance a listener could miss, or null when there is none. */
  note(request: NoteRequest): Promise<string | null>;
  /** Streams a summary in pieces; AiUnavailableError where the engine writes none (`supports`). */
  summarize(request: SummaryRequest): AsyncIterable<string>;
  /** The text spoken in `language`, as a WAV file (RIFF/WAVE, PCM). */
  synthesize(request: SpeechRequest): Promise<Uint8Array>;
  transcribe(audio: Uint8Array, options?: TranscribeOptions): Promise<Transcription>;
  /**
   * How this provider transcribes a clip while it is spoken; false or absent: whole clips only,
   * and a streamed clip is transcribed when it ends (clip mode, the fallback).
   */
  streamingTranscription?(): StreamingMode | false;
  /** Start transcribing a clip as it arrives; only when `streamingTranscription()` names a mode. */
  startTranscription?(options: TranscriptionStreamOptions): TranscriptionStream;
  /** Subscribe to loading progress (local models); returns the unsubscribe function. */
  onStatus?(listener: (status: ProviderStatus) => void): () => void;
  /** Start loading what can be loaded ahead of the first message (local models). Never throws. */
  warmUp?(): Promise<void>;
  close?(): Promise<void>;
}

/** Base of the errors providers throw on purpose. `retryable: false` means retrying cannot help. */
export class AiError extends Error {
  readonly retryable: boolean;
  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AiError';
    this.retryable = options.retryable;
  }
}

/**
 * The engine for a task cannot serve at all right now (model not loadable, not configured). The message is
 * meant for people: it is sent to the room as is, e.g.
 * 'translation unavailable: model Xenova/nllb-200-distilled-600M could not be loaded: ...'.
 */
export class AiUnavailableError extends AiError {
  readonly task: AiTask;
  constructor(task: AiTask, message: string, cause?: unknown) {
    super(message, { retryable: false, cause });
    this.name = 'AiUnavailableError';
    this.task = task;
  }
}

/** A call that did not finish within its time limit. */
export class AiTimeoutError extends AiError {
  constructor(task: AiTask, timeoutMs: number) {
    super(`${task} timed out after ${timeoutMs} ms`, { retryable: true });
    this.name = 'AiTimeoutError';
  }
}

/** Whether retrying the call that threw `error` may help (network, 5xx, 408/409/429, timeouts). */
export function isRetryable(error: unknown): boolean {
  if (error instanceof AiError) return error.retryable;
  if (typeof error === 'object' && error !== null) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number')
      return status >= 500 || status === 408 || status === 409 || status === 429;
  }
  return true;
}

let englishNames: Intl.DisplayNames | undefined;

/**
 * English name of a language code, for prompts and notices ('ja' -> 'Japanese'). The one formatter is made
 * on first use, not at start: the first Intl object maps megabytes of ICU data (decision 0129).
 */
export function languageName(code: string): string {
  try {
    englishNames ??= new Intl.DisplayNames(['en'], { type: 'language' });
    return englishNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * The language of a text judged by its script, for engines that do not report one. Returns undefined for
 * Latin-script text (cannot tell English from Spanish by script).
 */
export function languageFromScript(text: string): string | undefined {
  if (/[\u3040-\u30ff]/u.test(text)) return 'ja';
  if (/[\uac00-\ud7af]/u.test(text)) return 'ko';
  if (/[\u4e00-\u9fff]/u.test(text)) return 'zh';
  if (/[\u0400-\u04ff]/u.test(text)) return 'ru';
  if (/[\u0600-\u06ff]/u.test(text)) return 'ar';
  if (/[\u0e00-\u0e7f]/u.test(text)) return 'th';
  if (/[\u0900-\u097f]/u.test(text)) return 'hi';
  return undefined;
}

/** Map a language name or code reported by an engine ('japanese', 'ja', 'jpn') to a primary tag. */
export function normaliseLanguage(reported: string | undefined): string | undefined {
  if (!reported) return undefined;
  const value = reported.trim().toLowerCase();
  if (/^[a-z]{2}(-[a-z0-9]+)*$/.test(value)) return value.split('-')[0];
  const names: Record<string, string> = {
    english: 'en',
    japanese: 'ja',
    korean: 'ko',
    chinese: 'zh',
    spanish: 'es',
    french: 'fr',
    german: 'de',
    portuguese: 'pt',
    italian: 'it',
    russian: 'ru',
    vietnamese: 'vi',
    thai: 'th',
    indonesian: 'id',
    arabic: 'ar',
    hindi: 'hi',
    eng: 'en',
    jpn: 'ja',
  };
  return names[value];
}

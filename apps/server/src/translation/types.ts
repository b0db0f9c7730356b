import type { ErrorFrame, MessageFrame } from '@xtalk/protocol';
import type { Clock } from '../clock.js';
import type { AiProvider, AiTask, Logger, Transcription } from '../ai/index.js';
import type { TranslationConfig, TranslationServiceOptions } from './options.js';
import type { SupersedableJob } from './supersede.js';
import type { MetricsReport } from '../metrics/index.js';
import type {
  Charge,
  Glossary,
  GlossaryPort,
  Listeners,
  Meter,
  RoomOutput,
  TranslationStore,
  UserOutput,
} from './ports.js';

/** What the translation service reports for /metrics. */
export type TranslationMetrics = Pick<MetricsReport, 'aiCall' | 'aiRefused' | 'translationFirstText'>;

/** A job that can wait while its author's translations are paused (paused-authors.ts). */
export interface PausableJob {
  roomId: string;
  message: MessageFrame;
  author: { userId: string };
  /** Translations finished for this job (so a resumed job does not redo them). */
  done: Record<string, string>;
  /** Still being processed; a `resume` meanwhile re-queues it once it finishes. */
  running: boolean;
  resumeWhenDone: boolean;
}

/** Instrumentation (bench, debugging): `at` is performance.now() when the step finished. */
export interface PipelineEvent {
  kind: 'received' | 'started' | 'chunk' | 'complete' | 'stored' | 'note' | 'audio' | 'failed' | 'dropped';
  roomId: string;
  messageId: number;
  language?: string;
  task?: AiTask;
  at: number;
}

export interface TranslationServiceDeps {
  config: TranslationConfig;
  provider: AiProvider;
  output: RoomOutput;
  store: TranslationStore;
  meter: Meter;
  /** Where the author's own notice goes (all of their connections); without it only the room is told. */
  users?: UserOutput;
  /** Who listens in which language: speech is made only for a language someone listens in (decision 0137). */
  listeners?: Listeners;
  /** The room glossaries every translation obeys; without it, none. */
  glossary?: GlossaryPort;
  logger: Logger;
  clock?: Clock;
  options?: Partial<TranslationServiceOptions>;
  onEvent?: (event: PipelineEvent) => void;
  /** Where engine time, failures, refusals and first texts are counted (/metrics); nowhere without. */
  metrics?: TranslationMetrics;
}

export interface ClipRef {
  clipId: string;
  userId: string;
  username: string;
  language: string;
}

export interface Author {
  userId: string;
}

export interface TranscribeRequest {
  roomId: string;
  author: { userId: string; username: string };
  audio: Uint8Array;
  languageHint?: string;
  mimeType?: string;
  /** Length of the clip, for metering (the recorder knows it). */
  audioSeconds: number;
  /** A streamed clip: its engine's final transcript instead of transcribing `audio` again. */
  engine?: (signal: AbortSignal) => Promise<Transcription>;
}

export interface TranslationService {
  /** Queue translation of a new message. Never throws, never waits for an engine. */
  onMessage(roomId: string, message: MessageFrame, author: Author): void;
  /**
   * The message's text was corrected (its translations and note are void): the work on its old text
   * stops at once, nothing of it is sent or stored after this call, and the new text is queued like a new
   * message (charged as new work). Never throws, never waits for an engine.
   */
  onEdited(roomId: string, message: MessageFrame, author: Author): void;
  /**
   * "Try again" (retranslate.ts): the message's failed languages queued as new work, paid by its author once
   * per `requestId`. Resolves with the notice to answer the author with when they cannot pay for them
   * (nothing is queued nor kept), else undefined. Never waits for an engine.
   */
  retranslate(
    roomId: string,
    message: MessageFrame,
    author: Author,
    requestId: string,
  ): Promise<ErrorFrame | undefined>;
  /** Another node took a correction of this message: stop this node's work on its old text. Never throws. */
  supersede(roomId: string, id: number): void;
  /**
   * Speech to text for the voice issue, with the same metering, timeout and retries as everything else.
   * Throws InsufficientCreditsError, AiUnavailableError or the last engine error.
   */
  transcribe(request: TranscribeRequest): Promise<Transcription>;
  /** The user's balance grew: run the work refused for their credits again. Never throws. */
  resume(userId: string): void;
  /**
   * A sentence a streamed clip's transcription committed: translated now into the room's other
   * languages, chunks to the room with the clipId; the clip's message reuses it. Never throws.
   */
  clipSentence(roomId: string, clip: ClipRef, sentence: string): void;
  /** The clip ended without a message: forget its sentences. */
  dropClip(roomId: string, clipId: string): void;
  /**
   * Pay for `seconds` of a streamed clip's transcription as it is heard (voice/stream-payment.ts), through
   * the meter. Throws InsufficientCreditsError when the author's balance cannot cover it.
   */
  payClipAudio(roomId: string, clip: ClipRef, seconds: number): Promise<Charge | void>;
  /** Stop taking messages; wait for running ones up to `timeoutMs` (`closeTimeoutMs`), then abort them. */
  close(timeoutMs?: number): Promise<void>;
}

/** One message's work: its languages and hint, for one author. */
export interface Job extends PausableJob, SupersedableJob {
  author: Author;
  /** A "Try again" request's key: its engine calls are paid under keys made from it (paid once). */
  chargeKey?: string;
  /** The room was told of an engine failure of this job (its hint's failure is then not told again). */
  failureTold?: boolean;
  /** The room's glossary as it was when the message's work started. */
  glossary?: Glossary;
  /** performance.now() when the message reached translation: a first text's time is counted from it. */
  receivedAt: number;
  /** The languages whose first text has reached the room (each is timed once). */
  firstTextSent?: Set<string>;
}

import type { Config } from '../config.js';

export type TranslationConfig = Pick<Config, 'LANGUAGES'> & {
  /** Per-call timeout for engine calls (ms); default 30 000. */
  AI_TIMEOUT_MS?: number;
  /** Messages processed at once by this process; default 8. */
  AI_CONCURRENCY?: number;
};

export interface TranslationServiceOptions {
  /** Earlier messages given to the engine as context. */
  contextMessages: number;
  callTimeoutMs: number;
  /** Attempts per engine call, first one included. */
  attempts: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  maxConcurrent: number;
  maxConcurrentPerRoom: number;
  maxQueuedPerRoom: number;
  /** Sentences synthesised at once for one room, and for this process (speech-slots.ts). */
  speechPerRoom: number;
  speechPerNode: number;
  /** A room hears about one kind of failure at most once per window. */
  noticeWindowMs: number;
  /** Loading-progress notices at most this often per room. */
  loadingNoticeIntervalMs: number;
  cacheEntries: number;
  audioCacheBytes: number;
  closeTimeoutMs: number;
  speech: boolean;
  notes: boolean;
}

export const DEFAULT_TRANSLATION_OPTIONS: TranslationServiceOptions = {
  contextMessages: 6,
  callTimeoutMs: 30_000,
  attempts: 3,
  retryBaseDelayMs: 500,
  retryMaxDelayMs: 4_000,
  maxConcurrent: 8,
  maxConcurrentPerRoom: 2,
  maxQueuedPerRoom: 50,
  speechPerRoom: 2,
  speechPerNode: 4,
  noticeWindowMs: 60_000,
  loadingNoticeIntervalMs: 5_000,
  cacheEntries: 1_000,
  audioCacheBytes: 16 * 1024 * 1024,
  closeTimeoutMs: 10_000,
  speech: true,
  notes: true,
};

/** Defaults, then the environment's timeout and concurrency, then the caller's own options. */
export function resolveOptions(
  config: TranslationConfig,
  overrides: Partial<TranslationServiceOptions> | undefined,
): TranslationServiceOptions {
  return {
    ...DEFAULT_TRANSLATION_OPTIONS,
    ...(config.AI_TIMEOUT_MS ? { callTimeoutMs: config.AI_TIMEOUT_MS } : {}),
    ...(config.AI_CONCURRENCY ? { maxConcurrent: config.AI_CONCURRENCY } : {}),
    ...overrides,
  };
}

/** A close without a drain: the originals are stored, and a streaming translation is not worth more. */
export const TRANSLATION_CLOSE_MS = 3000;

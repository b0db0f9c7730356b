import type { MessageFrame } from '@xtalk/protocol';
import { FakeProvider } from '../../ai/index.js';
import type { Logger } from '../../ai/index.js';
import { MemoryMeter, MemoryRoomOutput, MemoryTranslationStore } from './memory-ports.js';
import type { PipelineEvent, TranslationServiceOptions } from '../service.js';
import { createTranslationService } from '../service.js';

/*
 * The translation pipeline's own overhead, measured against the fake provider of fixed latency: for every
 * (message, target language), the time from the job starting to translationComplete having been sent, minus
 * the time the provider itself spent producing the translation. Queueing (the concurrency bound) is reported
 * apart. Used by bench/; no network, no server.
 */

export interface PipelineBenchOptions {
  messages: number;
  rooms?: number;
  languages?: string[];
  chunkDelayMs: number;
  chunks: number;
  /** Messages processed at once (the service's maxConcurrent). */
  concurrency?: number;
  speech?: boolean;
  notes?: boolean;
  /** Gap between messages sent (ms); 0 sends them all at once. */
  intervalMs?: number;
}

export interface Stats {
  count: number;
  mean: number;
  p50: number;
  p95: number;
  max: number;
}

export interface PipelineBenchResult {
  /** Pipeline time beyond the provider's, per message and target (ms). */
  overheadMs: Stats;
  /** Provider time per translation (ms): about chunks * chunkDelayMs. */
  providerMs: Stats;
  /** Waiting for a slot before the job started (ms). */
  queueMs: Stats;
  /** From onMessage to translationComplete sent (ms). */
  endToEndMs: Stats;
  wallMs: number;
  framesSent: number;
}

function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const mean = sorted.length ? sorted.reduce((sum, v) => sum + v, 0) / sorted.length : 0;
  return { count: sorted.length, mean, p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? 0 };
}

const silentLogger: Logger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
} as unknown as Logger;

export async function runPipelineBench(options: PipelineBenchOptions): Promise<PipelineBenchResult> {
  const languages = options.languages ?? ['en', 'ja'];
  const roomCount = options.rooms ?? 1;
  const provider = new FakeProvider({ chunkDelayMs: options.chunkDelayMs, chunks: options.chunks });
  const output = new MemoryRoomOutput();
  const store = new MemoryTranslationStore();
  const events: PipelineEvent[] = [];
  const serviceOptions: Partial<TranslationServiceOptions> = {
    speech: options.speech ?? false,
    notes: options.notes ?? false,
    maxConcurrent: options.concurrency ?? 8,
    maxConcurrentPerRoom: options.concurrency ?? 8,
    maxQueuedPerRoom: options.messages + 1,
    cacheEntries: 0, // every message reaches the provider
    contextMessages: 6,
  };
  const service = createTranslationService({
    config: { LANGUAGES: languages },
    provider,
    output,
    store,
    meter: new MemoryMeter(),
    logger: silentLogger,
    options: serviceOptions,
    onEvent: (event) => events.push(event),
  });
  const started = performance.now();
  for (let i = 0; i < options.messages; i += 1) {
    const roomId = `ROOM${i % roomCount}`;
    const message: MessageFrame = {
      type: 'message',
      id: 1_000_000 + i,
      username: `user${i % 7}`,
      message: `bench message number ${i} with a few words`,
      language: languages[i % languages.length] ?? 'en',
      timestamp: 1_000_000 + i,
      translations: {},
      isTutorial: false,
    };
    store.add(roomId, message);
    service.onMessage(roomId, message, { userId: message.username });
    if (options.intervalMs) await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
  }
  const expected = options.messages * (languages.length - 1);
  while (events.filter((e) => e.kind === 'complete' || e.kind === 'failed').length < expected) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await service.close();
  const wallMs = performance.now() - started;

  const key = (messageId: number, language?: string) => `${messageId}:${language ?? ''}`;
  const received = new Map<number, number>();
  const jobStarted = new Map<number, number>();
  for (const e of events) {
    if (e.kind === 'received') received.set(e.messageId, e.at);
    if (e.kind === 'started') jobStarted.set(e.messageId, e.at);
  }
  // Provider time per (text, target): the fake records start and end of each call.
  const providerTime = new Map<string, number>();
  for (const call of provider.calls) {
    if (call.task !== 'translation' || call.finishedAt === undefined) continue;
    providerTime.set(`${call.text}\u0000${call.language}`, call.finishedAt - call.startedAt);
  }
  const texts = new Map<number, string>();
  for (const list of store.messages.values()) for (const m of list) texts.set(m.id, m.message);

  const overhead: number[] = [];
  const provided: number[] = [];
  const queue: number[] = [];
  const endToEnd: number[] = [];
  const seen = new Set<string>();
  for (const e of events) {
    if (e.kind !== 'complete' || seen.has(key(e.messageId, e.language))) continue;
    seen.add(key(e.messageId, e.language));
    const start = jobStarted.get(e.messageId);
    const recv = received.get(e.messageId);
    const spent = providerTime.get(`${texts.get(e.messageId)}\u0000${e.language}`);
    if (start === undefined || recv === undefined || spent === undefined) continue;
    overhead.push(e.at - start - spent);
    provided.push(spent);
    queue.push(start - recv);
    endToEnd.push(e.at - recv);
  }
  return {
    overheadMs: stats(overhead),
    providerMs: stats(provided),
    queueMs: stats(queue),
    endToEndMs: stats(endToEnd),
    wallMs,
    framesSent: output.frames.length,
  };
}

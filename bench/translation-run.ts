import type { MessageFrame } from '@xtalk/protocol';
import type { Logger } from '../apps/server/src/ai/provider.js';
import { createMemoryBus } from '../apps/server/src/bus/bus.js';
import { createRoomHub } from '../apps/server/src/delivery/room-hub.js';
import { createTranslationService, type PipelineEvent } from '../apps/server/src/translation/index.js';
import {
  FakeProvider,
  MemoryMeter,
  MemoryTranslationStore,
  runPipelineBench,
  type PipelineBenchResult,
} from '../apps/server/src/translation/testing/index.js';
import { paceSenders, waitUntil } from './lib/pace.js';
import { summarise, type Summary } from './lib/stats.js';
import { listenAsHubMembers } from './translation/hub-sockets.js';
import { connectClients, PipelineTimings } from './translation/pipeline-clients.js';
import { TimedProvider } from './translation/timed-provider.js';

/*
 * The translation run, IN-PROCESS, for what cannot be seen from outside the server process: when the
 * provider emits each chunk. (bench/translation-e2e.ts measures the wired server end to end.) It builds the
 * server's path from its own modules: the translation service's exported API with the fake provider (fixed
 * chunk delay, each chunk timestamped) and in-memory store/meter ports, its RoomOutput being the server's
 * real room hub + in-process bus, whose members are real `ws` server sockets on 127.0.0.1, read by real `ws`
 * clients. Missing compared with the server: the gateway's auth, PGlite writes, a separate process.
 */

export interface TranslationRunOptions {
  rooms: number;
  clientsPerRoom: number;
  /** Messages per second per room. */
  ratePerRoom: number;
  seconds: number;
  chunks: number;
  chunkDelayMs: number;
  speech: boolean;
  notes: boolean;
  languages: string[];
  drainMs: number;
  log: (line: string) => void;
}

export interface TranslationRunResult {
  mode: 'in-process';
  params: Omit<TranslationRunOptions, 'log'>;
  connections: number;
  messages: number;
  /** (message, target) pairs that completed / were expected. */
  translationsCompleted: number;
  translationsExpected: number;
  failedOrDropped: number;
  /** Provider's fixed latency per translation: chunks x chunkDelayMs. */
  nominalProviderMs: number;
  /** What the fake provider actually took per translation (timers overshoot). */
  providerMs: Summary;
  /** Message broadcast -> translationComplete received by a client, per client. */
  broadcastToCompleteMs: Summary;
  /** broadcastToComplete minus chunks x chunkDelay: the pipeline's overhead per message, target and client. */
  overheadVsNominalMs: Summary;
  /** broadcastToComplete minus the provider's measured time for that translation. */
  overheadVsMeasuredMs: Summary;
  /** Waiting for a concurrency slot (service `received` -> `started`). */
  queueMs: Summary;
  /** Provider yields a chunk -> a client receives that translationChunk. */
  chunkFanOutMs: Summary;
  /** Message broadcast -> message frame received (no translation involved). */
  messageFanOutMs: Summary;
  chunkFrames: number;
  audioFrames: number;
  audioBytes: number;
  /** The service alone, without fan-out (apps/server/src/translation/bench.ts runPipelineBench). */
  serviceOnly: PipelineBenchResult;
}

const silentLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
} as unknown as Logger;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server's translation path from its own modules, the fake engine timed and the rest in memory. */
function buildPipeline(options: TranslationRunOptions) {
  const inner = new FakeProvider({ chunkDelayMs: options.chunkDelayMs, chunks: options.chunks });
  const provider = new TimedProvider(inner);
  const bus = createMemoryBus();
  const hub = createRoomHub(bus);
  const store = new MemoryTranslationStore();
  const events: PipelineEvent[] = [];
  const service = createTranslationService({
    config: { LANGUAGES: options.languages },
    provider,
    output: hub,
    store,
    meter: new MemoryMeter(),
    logger: silentLogger,
    options: { speech: options.speech, notes: options.notes },
    onEvent: (event) => events.push(event),
  });
  return { provider, bus, hub, store, events, service };
}

type Pipeline = ReturnType<typeof buildPipeline>;

/** Messages posted so far, and the last id given: ids count up from the run's start time. */
interface Posted {
  messages: number;
  lastId: number;
}

export async function runTranslation(options: TranslationRunOptions): Promise<TranslationRunResult> {
  const { log, languages } = options;
  const pipeline = buildPipeline(options);
  const { provider, events, service } = pipeline;
  const sockets = await listenAsHubMembers(pipeline.hub);
  const nominal = options.chunks * options.chunkDelayMs;
  const timings = new PipelineTimings(provider, nominal);
  const clients = await connectClients(sockets.port, timings, options);

  log(
    `translation run (in-process): ${options.rooms} rooms x ${options.clientsPerRoom} clients, ` +
      `${options.ratePerRoom} msg/s per room, ${options.chunks} chunks x ${options.chunkDelayMs} ms, ` +
      `${options.seconds}s...`,
  );
  const posted: Posted = { messages: 0, lastId: Date.now() };
  const stop = paceSenders(options.rooms, 1000 / options.ratePerRoom, (room) => {
    void post(pipeline, timings, posted, room, options);
  });
  await sleep(options.seconds * 1000);
  stop();

  const translationsExpected = posted.messages * (languages.length - 1);
  const finished = () => events.filter((e) => e.kind === 'complete' || e.kind === 'failed').length;
  await waitUntil(() => finished() >= translationsExpected, options.drainMs, 20);
  await sleep(200); // last frames on the wire
  await service.close();
  for (const ws of clients) ws.close();
  await sockets.close();
  await pipeline.bus.close();
  const overheadMeasured = timings.overheadVsMeasured();
  const queue = slotWaits(events);

  log('translation run: service-only pipeline bench (apps/server/src/translation/bench.ts)...');
  const serviceOnly = await runPipelineBench({
    messages: Math.max(20, Math.round(options.rooms * options.ratePerRoom * options.seconds)),
    rooms: options.rooms,
    languages,
    chunkDelayMs: options.chunkDelayMs,
    chunks: options.chunks,
    speech: options.speech,
    notes: options.notes,
    intervalMs: Math.max(1, Math.round(1000 / (options.rooms * options.ratePerRoom))),
  });

  return {
    mode: 'in-process',
    params: {
      rooms: options.rooms,
      clientsPerRoom: options.clientsPerRoom,
      ratePerRoom: options.ratePerRoom,
      seconds: options.seconds,
      chunks: options.chunks,
      chunkDelayMs: options.chunkDelayMs,
      speech: options.speech,
      notes: options.notes,
      languages,
      drainMs: options.drainMs,
    },
    connections: clients.length,
    messages: posted.messages,
    translationsCompleted: events.filter((e) => e.kind === 'complete').length,
    translationsExpected,
    failedOrDropped: events.filter((e) => e.kind === 'failed' || e.kind === 'dropped').length,
    nominalProviderMs: nominal,
    providerMs: summarise([...provider.providerTimes.values()]),
    broadcastToCompleteMs: summarise(timings.toComplete),
    overheadVsNominalMs: summarise(timings.overheadNominal),
    overheadVsMeasuredMs: summarise(overheadMeasured),
    queueMs: summarise(queue),
    chunkFanOutMs: summarise(timings.chunkFanOut),
    messageFanOutMs: summarise(timings.messageFanOut),
    chunkFrames: timings.chunkFrames,
    audioFrames: timings.audioFrames,
    audioBytes: timings.audioBytes,
    serviceOnly,
  };
}

/** One message into `room`, as chat-service does once it is stored: broadcast, then handed to translation. */
async function post(
  pipeline: Pipeline,
  timings: PipelineTimings,
  posted: Posted,
  room: number,
  options: TranslationRunOptions,
): Promise<void> {
  const roomId = `ROOM${room}`;
  const language = options.languages[posted.messages % options.languages.length] ?? 'en';
  const id = (posted.lastId += 1);
  posted.messages += 1;
  const frame: MessageFrame = {
    type: 'message',
    id,
    username: `u${room * options.clientsPerRoom}`,
    message: `translation bench message ${id} in room ${room}, a sentence of a few words`,
    language,
    timestamp: id,
    translations: {},
    isTutorial: false,
  };
  pipeline.store.add(roomId, frame);
  const broadcastAt = performance.now();
  timings.sent.set(id, { roomId, text: frame.message, language, broadcastAt });
  await pipeline.hub.broadcast(roomId, frame);
  pipeline.service.onMessage(roomId, frame, { userId: frame.username });
}

/** How long each message waited for a concurrency slot: the service's `received` -> `started`. */
function slotWaits(events: readonly PipelineEvent[]): number[] {
  const receivedAt = new Map<number, number>();
  const queue: number[] = [];
  for (const event of events) {
    if (event.kind === 'received') receivedAt.set(event.messageId, event.at);
    if (event.kind === 'started') {
      const at = receivedAt.get(event.messageId);
      if (at !== undefined) queue.push(event.at - at);
    }
  }
  return queue;
}

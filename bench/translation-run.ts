import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import type { MessageFrame, ServerFrame } from '@xtalk/protocol';
import type { AiProvider, Logger, TranslateRequest } from '../apps/server/src/ai/provider.js';
import { createMemoryBus } from '../apps/server/src/bus/bus.js';
import { createRoomHub, type HubMember } from '../apps/server/src/realtime/room-hub.js';
import { createTranslationService, type PipelineEvent } from '../apps/server/src/translation/index.js';
import {
  FakeProvider,
  MemoryMeter,
  MemoryTranslationStore,
  runPipelineBench,
  type PipelineBenchResult,
} from '../apps/server/src/translation/testing/index.js';
import { mapLimit } from './lib/guest.js';
import { summarise, type Summary } from './lib/stats.js';

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

/** Delegates to the fake provider and records when each translation chunk was handed to the service. */
class TimedProvider implements AiProvider {
  readonly name = 'fake' as const;
  /** `${text}\u0000${target}` -> emit time of each chunk, in order. */
  readonly chunkTimes = new Map<string, number[]>();
  /** `${text}\u0000${target}` -> provider time (first request -> last chunk). */
  readonly providerTimes = new Map<string, number>();

  constructor(private readonly inner: FakeProvider) {}

  supports: AiProvider['supports'] = (task, language) => (this.inner as AiProvider).supports(task, language);
  note: AiProvider['note'] = (request) => this.inner.note(request);
  summarize: AiProvider['summarize'] = (request) => this.inner.summarize(request);
  synthesize: AiProvider['synthesize'] = (request) => this.inner.synthesize(request);
  transcribe: AiProvider['transcribe'] = (audio, options) => this.inner.transcribe(audio, options);

  async *translate(request: TranslateRequest): AsyncIterable<string> {
    const key = `${request.text}\u0000${request.targetLanguage}`;
    const times: number[] = [];
    this.chunkTimes.set(key, times);
    const start = performance.now();
    for await (const piece of this.inner.translate(request)) {
      times.push(performance.now());
      yield piece;
    }
    this.providerTimes.set(key, performance.now() - start);
  }
}

interface SentMessage {
  roomId: string;
  text: string;
  language: string;
  broadcastAt: number;
}

export async function runTranslation(options: TranslationRunOptions): Promise<TranslationRunResult> {
  const { log, languages } = options;
  const inner = new FakeProvider({ chunkDelayMs: options.chunkDelayMs, chunks: options.chunks });
  const provider = new TimedProvider(inner);
  const bus = createMemoryBus();
  const hub = createRoomHub(bus);
  const store = new MemoryTranslationStore();
  const events: PipelineEvent[] = [];
  const service = createTranslationService({
    config: { LANGUAGES: languages },
    provider,
    output: hub,
    store,
    meter: new MemoryMeter(),
    logger: silentLogger,
    options: { speech: options.speech, notes: options.notes },
    onEvent: (event) => events.push(event),
  });

  // ------------------------------------------------------------ sockets: server side = hub members
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const port = (wss.address() as AddressInfo).port;
  wss.on('connection', (ws, request) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const member: HubMember = {
      roomId: url.searchParams.get('room') ?? '',
      username: () => url.searchParams.get('user') ?? '',
      language: () => url.searchParams.get('lang') ?? 'en',
      deliverText: (json) => ws.send(json, { binary: false }),
      deliverAudio: (wav) => ws.send(wav, { binary: true }),
      deliverSpeech: (json, ogg) => {
        ws.send(json, { binary: false });
        ws.send(ogg, { binary: true });
      },
    };
    void hub.attach(member).then(() => ws.send('attached'));
    ws.on('close', () => void hub.detach(member));
  });

  // ------------------------------------------------------------ clients
  const sent = new Map<number, SentMessage>();
  const messageFanOut: number[] = [];
  const chunkFanOut: number[] = [];
  const toComplete: number[] = [];
  const overheadNominal: number[] = [];
  const overheadMeasured: number[] = [];
  const nominal = options.chunks * options.chunkDelayMs;
  let chunkFrames = 0;
  let audioFrames = 0;
  let audioBytes = 0;
  const pendingComplete: Array<{ id: number; target: string; receivedAt: number }> = [];

  const clients: WebSocket[] = [];
  const specs = Array.from({ length: options.rooms * options.clientsPerRoom }, (_, index) => ({
    index,
    room: `ROOM${Math.floor(index / options.clientsPerRoom)}`,
    language: languages[index % languages.length] ?? 'en',
  }));
  await mapLimit(specs, 32, async (spec) => {
    const ws = new WebSocket(
      `ws://127.0.0.1:${port}/?room=${spec.room}&user=u${spec.index}&lang=${spec.language}`,
      { perMessageDeflate: false },
    );
    const chunkIndex = new Map<string, number>();
    await new Promise<void>((resolve, reject) => {
      ws.once('error', reject);
      ws.on('message', (data, isBinary) => {
        const receivedAt = performance.now();
        if (isBinary) {
          audioFrames += 1;
          audioBytes += (data as Buffer).length;
          return;
        }
        const text = data.toString();
        if (text === 'attached') return resolve();
        const frame = JSON.parse(text) as ServerFrame;
        const message = 'originalTimestamp' in frame ? sent.get(frame.originalTimestamp) : undefined;
        if (frame.type === 'message') {
          const own = sent.get(frame.id);
          if (own) messageFanOut.push(receivedAt - own.broadcastAt);
        } else if (frame.type === 'translationChunk' && message) {
          chunkFrames += 1;
          const key = `${frame.originalTimestamp}:${frame.targetLanguage}`;
          const index = chunkIndex.get(key) ?? 0;
          chunkIndex.set(key, index + 1);
          const emitted = provider.chunkTimes.get(`${message.text}\u0000${frame.targetLanguage}`)?.[index];
          if (emitted !== undefined) chunkFanOut.push(receivedAt - emitted);
        } else if (frame.type === 'translationComplete' && message) {
          const total = receivedAt - message.broadcastAt;
          toComplete.push(total);
          overheadNominal.push(total - nominal);
          pendingComplete.push({ id: frame.originalTimestamp, target: frame.targetLanguage, receivedAt });
        }
      });
    });
    clients.push(ws);
  });

  // ------------------------------------------------------------ messages
  log(
    `translation run (in-process): ${options.rooms} rooms x ${options.clientsPerRoom} clients, ` +
      `${options.ratePerRoom} msg/s per room, ${options.chunks} chunks x ${options.chunkDelayMs} ms, ` +
      `${options.seconds}s...`,
  );
  let nextId = Date.now();
  let messages = 0;
  const intervalMs = 1000 / options.ratePerRoom;
  const timers: NodeJS.Timeout[] = [];
  const post = async (room: number) => {
    const roomId = `ROOM${room}`;
    const language = languages[messages % languages.length] ?? 'en';
    const id = (nextId += 1);
    messages += 1;
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
    store.add(roomId, frame);
    const broadcastAt = performance.now();
    sent.set(id, { roomId, text: frame.message, language, broadcastAt });
    // what chat-service does once the message is stored: broadcast, then hand it to translation
    await hub.broadcast(roomId, frame);
    service.onMessage(roomId, frame, { userId: frame.username });
  };
  for (let room = 0; room < options.rooms; room += 1) {
    timers.push(
      setTimeout(() => {
        void post(room);
        timers.push(setInterval(() => void post(room), intervalMs));
      }, Math.random() * intervalMs),
    );
  }
  await sleep(options.seconds * 1000);
  for (const timer of timers) clearTimeout(timer);

  const translationsExpected = messages * (languages.length - 1);
  const finished = () => events.filter((e) => e.kind === 'complete' || e.kind === 'failed').length;
  const deadline = performance.now() + options.drainMs;
  while (finished() < translationsExpected && performance.now() < deadline) await sleep(20);
  await sleep(200); // last frames on the wire
  await service.close();
  for (const ws of clients) ws.close();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  await bus.close();

  for (const { id, target, receivedAt } of pendingComplete) {
    const message = sent.get(id);
    const spent = message && provider.providerTimes.get(`${message.text}\u0000${target}`);
    if (message && spent !== undefined) overheadMeasured.push(receivedAt - message.broadcastAt - spent);
  }
  const receivedAt = new Map<number, number>();
  const queue: number[] = [];
  for (const event of events) {
    if (event.kind === 'received') receivedAt.set(event.messageId, event.at);
    if (event.kind === 'started') {
      const at = receivedAt.get(event.messageId);
      if (at !== undefined) queue.push(event.at - at);
    }
  }

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
    messages,
    translationsCompleted: events.filter((e) => e.kind === 'complete').length,
    translationsExpected,
    failedOrDropped: events.filter((e) => e.kind === 'failed' || e.kind === 'dropped').length,
    nominalProviderMs: nominal,
    providerMs: summarise([...provider.providerTimes.values()]),
    broadcastToCompleteMs: summarise(toComplete),
    overheadVsNominalMs: summarise(overheadNominal),
    overheadVsMeasuredMs: summarise(overheadMeasured),
    queueMs: summarise(queue),
    chunkFanOutMs: summarise(chunkFanOut),
    messageFanOutMs: summarise(messageFanOut),
    chunkFrames,
    audioFrames,
    audioBytes,
    serviceOnly,
  };
}

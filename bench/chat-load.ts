import type { ServerProcess } from './lib/server-process.js';
import { median, round, summarise, type Summary } from './lib/stats.js';
import { closeClients, openInBatches, seatClients } from './chat/clients.js';
import { Deliveries } from './chat/deliveries.js';
import { MemorySamples, type MemorySample } from './chat/memory-samples.js';
import { drain, sendAtRate } from './chat/sending.js';

/*
 * The chat run: many guests in many rooms over real sockets to the server child process. Every client sends
 * `rate` messages per second; every message carries its id and send time, and every receiver in the room
 * (the sender included: the server echoes to everyone) records the delivery latency.
 */

export interface ChatLoadOptions {
  rooms: number;
  clientsPerRoom: number;
  /** Measured phase (s). */
  seconds: number;
  /** Sending before the measured phase, not counted (s). */
  warmupSeconds: number;
  /** Messages per second per client (the server allows a burst of 8, then 2/s per connection). */
  rate: number;
  /** How long to wait for outstanding deliveries after the last send (ms). */
  drainMs: number;
  /** Parallel logins / socket opens. */
  setupConcurrency: number;
  log: (line: string) => void;
}

export interface ChatLoadResult {
  params: Omit<ChatLoadOptions, 'log'>;
  connections: number;
  rooms: number;
  serverReportedConnections: number | undefined;
  setup: { loginMs: number; loginsPerSecond: number; joinMs: number; connectMs: number };
  messagesSent: number;
  deliveries: number;
  expectedDeliveries: number;
  missingDeliveries: number;
  deliveriesPerSecond: number;
  messagesPerSecond: number;
  latencyMs: Summary;
  /** Latency of the echo a sender gets of its own message (the "sent" tick). */
  echoLatencyMs: Summary;
  memory: {
    idleKiB: number;
    beforeConnectKiB: number;
    afterConnectKiB: number;
    afterLoadKiB: number;
    afterCloseKiB: number;
    peakKiB: number;
    /** (afterConnect - beforeConnect) / connections, as asked; spoiled when the RSS drops on its own. */
    perConnectionKiB: number;
    /** Median over the 5 connect batches of (RSS step / sockets opened): robust to one jump. */
    perConnectionBatchMedianKiB: number;
    perConnectionBatchStepsKiB: number[];
    samples: MemorySample[];
  };
  cpu: {
    /** Server CPU during the measured phase, % of one core. */
    serverPercent: number;
    /** Load generator (this process) CPU during the measured phase, % of one core. */
    loadGeneratorPercent: number;
    /** Load generator event-loop delay during the measured phase (ms). */
    loadGeneratorLoopDelayP99Ms: number;
    loadGeneratorLoopDelayMaxMs: number;
  };
  errors: {
    /** `error` frames by code. */
    frames: Record<string, number>;
    unexpectedCloses: number;
    socketErrors: number;
    setupFailures: number;
  };
  /** Frames other than message/error, by type (JOIN/READY system frames, translations if wired). */
  otherFrames: Record<string, number>;
  /** When the server itself translates (translation wired into the app): message -> translationComplete. */
  serverTranslation: { completes: number; chunks: number; messageToCompleteMs: Summary } | undefined;
}

export async function runChatLoad(server: ServerProcess, options: ChatLoadOptions): Promise<ChatLoadResult> {
  const memory = new MemorySamples(server);
  const idleKiB = await memory.settled('idle');
  const seated = await seatClients(server, options);
  const beforeConnectKiB = await memory.settled('before-connect');

  const deliveries = new Deliveries();
  const sockets = await openInBatches(server, seated.clients, deliveries, memory, beforeConnectKiB, options);
  const connected = seated.clients.filter((client) => client.ws);
  const serverReportedConnections = await reportedConnections(server);

  const stopSampling = memory.everySecond(() => (deliveries.measuring ? 'load' : 'warm-up'));
  const load = await sendAtRate(server, connected, deliveries, options);
  const afterLoadKiB = memory.sample('after-load');
  const drained = await drain(connected, deliveries, options.drainMs);
  stopSampling();

  closeClients(connected);
  const afterCloseKiB = await memory.settled('after-close');
  const { afterConnectKiB, batchSteps, trouble } = sockets;
  const perSecond = (count: number) => round((count / load.wallMs) * 1000);
  return {
    params: {
      rooms: options.rooms,
      clientsPerRoom: options.clientsPerRoom,
      seconds: options.seconds,
      warmupSeconds: options.warmupSeconds,
      rate: options.rate,
      drainMs: options.drainMs,
      setupConcurrency: options.setupConcurrency,
    },
    connections: connected.length,
    rooms: options.rooms,
    serverReportedConnections,
    setup: {
      loginMs: round(seated.loginMs),
      loginsPerSecond: round((seated.clients.length / seated.loginMs) * 1000),
      joinMs: round(seated.joinMs),
      connectMs: round(sockets.connectMs),
    },
    messagesSent: deliveries.measuredSent,
    deliveries: deliveries.deliveries,
    ...drained,
    deliveriesPerSecond: perSecond(deliveries.deliveries),
    messagesPerSecond: perSecond(deliveries.measuredSent),
    latencyMs: summarise(deliveries.latencies),
    echoLatencyMs: summarise(deliveries.echoLatencies),
    memory: {
      idleKiB,
      beforeConnectKiB,
      afterConnectKiB,
      afterLoadKiB,
      afterCloseKiB,
      peakKiB: server.peakRssKiB(),
      perConnectionKiB: round((afterConnectKiB - beforeConnectKiB) / Math.max(1, connected.length)),
      perConnectionBatchMedianKiB: round(median(batchSteps)),
      perConnectionBatchStepsKiB: batchSteps.map((step) => round(step)),
      samples: memory.samples,
    },
    cpu: load.cpu,
    errors: { frames: deliveries.errorFrames, ...trouble },
    otherFrames: deliveries.otherFrames,
    serverTranslation: deliveries.serverTranslation(),
  };
}

/** The connections the server itself counts (informative only: undefined when health does not say). */
async function reportedConnections(server: ServerProcess): Promise<number | undefined> {
  try {
    const health = (await (await fetch(`${server.baseUrl}/api/health`)).json()) as { connections?: number };
    return health.connections;
  } catch {
    return undefined;
  }
}

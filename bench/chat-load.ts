import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type WebSocket from 'ws';
import type { GuestLoginResponse, JoinRoomResponse, ServerFrame } from '@xtalk/protocol';
import { guestLogin, joinRoom, mapLimit, openSocket } from './lib/guest.js';
import type { ServerProcess } from './lib/server-process.js';
import { median, round, summarise, type Summary } from './lib/stats.js';

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

export interface MemorySample {
  /** Seconds since the chat run started. */
  t: number;
  phase: string;
  rssKiB: number;
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

interface Tracked {
  sentAt: number;
  measured: boolean;
  room: number;
  deliveries: number;
}

interface Client {
  index: number;
  room: number;
  login: GuestLoginResponse;
  session?: JoinRoomResponse;
  ws?: WebSocket;
  seq: number;
  closedByUs: boolean;
}

const PREFIX = 'bench:';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runChatLoad(server: ServerProcess, options: ChatLoadOptions): Promise<ChatLoadResult> {
  const { log } = options;
  const started = performance.now();
  const samples: MemorySample[] = [];
  const sample = (phase: string) => {
    const rssKiB = server.rssKiB();
    samples.push({ t: round((performance.now() - started) / 1000, 2), phase, rssKiB });
    return rssKiB;
  };
  const total = options.rooms * options.clientsPerRoom;
  const errorFrames: Record<string, number> = {};
  const otherFrames: Record<string, number> = {};
  let unexpectedCloses = 0;
  let socketErrors = 0;
  let setupFailures = 0;

  const settled = async (phase: string) => {
    const values: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      await sleep(1000);
      values.push(sample(phase));
    }
    return median(values);
  };
  const idleKiB = await settled('idle');

  // ---------------------------------------------------------------- guests and sessions (HTTP)
  log(`logging in ${total} guests (ALTCHA solved in-process)...`);
  let t0 = performance.now();
  const logins = await mapLimit(Array.from({ length: total }), options.setupConcurrency, async () =>
    guestLogin(server.baseUrl),
  );
  const loginMs = performance.now() - t0;
  const clients: Client[] = logins.map((login, index) => ({
    index,
    room: Math.floor(index / options.clientsPerRoom),
    login,
    seq: 0,
    closedByUs: false,
  }));

  t0 = performance.now();
  const roomIds: string[] = [];
  await mapLimit(
    Array.from({ length: options.rooms }, (_, room) => room),
    options.setupConcurrency,
    async (room) => {
      const owner = clients[room * options.clientsPerRoom] as Client;
      owner.session = await joinRoom(server.baseUrl, owner.login.token, null);
      roomIds[room] = owner.session.roomId;
    },
  );
  await mapLimit(clients, options.setupConcurrency, async (client) => {
    if (client.session) return;
    client.session = await joinRoom(server.baseUrl, client.login.token, roomIds[client.room] ?? null);
  });
  const joinMs = performance.now() - t0;
  const beforeConnectKiB = await settled('before-connect');

  // ---------------------------------------------------------------- sockets
  const tracked = new Map<string, Tracked>();
  let measuring = false;
  let deliveries = 0;
  const latencies: number[] = [];
  const echoLatencies: number[] = [];
  // server translation, when the app translates: per client, when each message arrived
  const messageSeenAt = new Map<string, number>();
  const toComplete: number[] = [];
  let translationChunks = 0;
  let translationCompletes = 0;

  const onFrame = (client: Client) => (frame: ServerFrame, receivedAt: number) => {
    switch (frame.type) {
      case 'message': {
        if (!frame.message.startsWith(PREFIX)) return;
        const [, id, sentAtText] = frame.message.split(':', 3);
        const sentAt = Number.parseFloat(sentAtText ?? '');
        const entry = id === undefined ? undefined : tracked.get(id);
        if (!entry) return; // replayed from before this process (cannot happen on a fresh server)
        entry.deliveries += 1;
        if (!entry.measured) return;
        deliveries += 1;
        const latency = receivedAt - sentAt;
        latencies.push(latency);
        if (frame.username === client.login.user.username) echoLatencies.push(latency);
        messageSeenAt.set(`${client.index}:${frame.id}`, receivedAt);
        return;
      }
      case 'error':
        errorFrames[frame.code] = (errorFrames[frame.code] ?? 0) + 1;
        return;
      case 'translationChunk':
        translationChunks += 1;
        otherFrames[frame.type] = (otherFrames[frame.type] ?? 0) + 1;
        return;
      case 'translationComplete': {
        translationCompletes += 1;
        otherFrames[frame.type] = (otherFrames[frame.type] ?? 0) + 1;
        const seen = messageSeenAt.get(`${client.index}:${frame.originalTimestamp}`);
        if (seen !== undefined && measuring) toComplete.push(receivedAt - seen);
        return;
      }
      default: {
        const key = frame.type === 'system' ? `system ${frame.message}` : frame.type;
        otherFrames[key] = (otherFrames[key] ?? 0) + 1;
      }
    }
  };

  // Sockets open in 5 batches with the RSS sampled after each: the server's RSS also moves by hundreds of
  // MiB on its own (see BENCH.md), so the median per-batch step is reported beside (after - before) / n.
  const batches = 5;
  const batchSize = Math.ceil(total / batches);
  const batchSteps: number[] = [];
  let previousKiB = beforeConnectKiB;
  log(`opening ${total} sockets in ${options.rooms} rooms (${batches} batches)...`);
  let connectMsTotal = 0;
  for (let batch = 0; batch < batches; batch += 1) {
    const batchStart = performance.now();
    await mapLimit(
      clients.slice(batch * batchSize, (batch + 1) * batchSize),
      options.setupConcurrency,
      async (client) => {
        try {
          const ws = await openSocket(
            server.wsBase,
            client.login,
            client.session as JoinRoomResponse,
            'en',
            onFrame(client),
          );
          client.ws = ws;
          ws.on('close', () => {
            if (!client.closedByUs) unexpectedCloses += 1;
          });
          ws.on('error', () => (socketErrors += 1));
        } catch (error) {
          setupFailures += 1;
          log(`socket for client ${client.index} failed: ${(error as Error).message}`);
        }
      },
    );
    connectMsTotal += performance.now() - batchStart;
    const opened = clients.slice(batch * batchSize, (batch + 1) * batchSize).filter((c) => c.ws).length;
    const nowKiB = await settled(`connect batch ${batch + 1}`);
    if (opened > 0) batchSteps.push((nowKiB - previousKiB) / opened);
    previousKiB = nowKiB;
  }
  const connectMs = connectMsTotal;
  const connected = clients.filter((client) => client.ws);
  const afterConnectKiB = previousKiB;
  let serverReportedConnections: number | undefined;
  try {
    const health = (await (await fetch(`${server.baseUrl}/api/health`)).json()) as { connections?: number };
    serverReportedConnections = health.connections;
  } catch {
    // health is informative only
  }

  // ---------------------------------------------------------------- load
  const memoryTimer = setInterval(() => sample(measuring ? 'load' : 'warm-up'), 1000);
  let measuredSent = 0;
  const intervalMs = 1000 / options.rate;
  const timers: NodeJS.Timeout[] = [];
  const send = (client: Client) => {
    const ws = client.ws;
    if (!ws || ws.readyState !== ws.OPEN) return;
    const id = `${client.index}-${client.seq++}`;
    const sentAt = performance.now();
    tracked.set(id, { sentAt, measured: measuring, room: client.room, deliveries: 0 });
    if (measuring) measuredSent += 1;
    ws.send(
      JSON.stringify({
        type: 'chat',
        language: 'en',
        room: client.session?.roomId,
        message: `${PREFIX}${id}:${sentAt.toFixed(3)} hello from client ${client.index}`,
        clientId: randomUUID(),
      }),
    );
  };
  log(
    `sending ${options.rate} msg/s per client (${round(options.rate * connected.length)} msg/s in all): ` +
      `${options.warmupSeconds}s warm-up, ${options.seconds}s measured...`,
  );
  for (const client of connected) {
    // spread the clients over the interval so the sends do not come in waves
    const first = setTimeout(() => {
      send(client);
      timers.push(setInterval(() => send(client), intervalMs));
    }, Math.random() * intervalMs);
    timers.push(first);
  }
  await sleep(options.warmupSeconds * 1000);

  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const cpuStart = { server: server.cpuMs(), self: process.cpuUsage(), at: performance.now() };
  measuring = true;
  await sleep(options.seconds * 1000);
  measuring = false;
  for (const timer of timers) clearTimeout(timer);
  const wallMs = performance.now() - cpuStart.at;
  const selfCpu = process.cpuUsage(cpuStart.self);
  const serverPercent = ((server.cpuMs() - cpuStart.server) / wallMs) * 100;
  const loadGeneratorPercent = ((selfCpu.user + selfCpu.system) / 1000 / wallMs) * 100;
  loopDelay.disable();
  const afterLoadKiB = sample('after-load');

  // ---------------------------------------------------------------- drain
  const inRoom = new Map<number, number>();
  for (const client of connected) inRoom.set(client.room, (inRoom.get(client.room) ?? 0) + 1);
  const measuredEntries = [...tracked.values()].filter((entry) => entry.measured);
  const expectedDeliveries = measuredEntries.reduce((sum, entry) => sum + (inRoom.get(entry.room) ?? 0), 0);
  const deadline = performance.now() + options.drainMs;
  const delivered = () => measuredEntries.reduce((sum, entry) => sum + entry.deliveries, 0);
  while (delivered() < expectedDeliveries && performance.now() < deadline) await sleep(50);
  clearInterval(memoryTimer);
  const missingDeliveries = expectedDeliveries - delivered();

  // ---------------------------------------------------------------- close
  for (const client of connected) {
    client.closedByUs = true;
    client.ws?.close(1000);
  }
  const afterCloseKiB = await settled('after-close');
  const peakKiB = server.peakRssKiB();

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
      loginMs: round(loginMs),
      loginsPerSecond: round((total / loginMs) * 1000),
      joinMs: round(joinMs),
      connectMs: round(connectMs),
    },
    messagesSent: measuredSent,
    deliveries,
    expectedDeliveries,
    missingDeliveries,
    deliveriesPerSecond: round((deliveries / wallMs) * 1000),
    messagesPerSecond: round((measuredSent / wallMs) * 1000),
    latencyMs: summarise(latencies),
    echoLatencyMs: summarise(echoLatencies),
    memory: {
      idleKiB,
      beforeConnectKiB,
      afterConnectKiB,
      afterLoadKiB,
      afterCloseKiB,
      peakKiB,
      perConnectionKiB: round((afterConnectKiB - beforeConnectKiB) / Math.max(1, connected.length)),
      perConnectionBatchMedianKiB: round(median(batchSteps)),
      perConnectionBatchStepsKiB: batchSteps.map((step) => round(step)),
      samples,
    },
    cpu: {
      serverPercent: round(serverPercent),
      loadGeneratorPercent: round(loadGeneratorPercent),
      loadGeneratorLoopDelayP99Ms: round(loopDelay.percentile(99) / 1e6),
      loadGeneratorLoopDelayMaxMs: round(loopDelay.max / 1e6),
    },
    errors: { frames: errorFrames, unexpectedCloses, socketErrors, setupFailures },
    otherFrames,
    serverTranslation:
      translationChunks + translationCompletes > 0
        ? {
            completes: translationCompletes,
            chunks: translationChunks,
            messageToCompleteMs: summarise(toComplete),
          }
        : undefined,
  };
}

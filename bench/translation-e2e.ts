import { randomUUID } from 'node:crypto';
import type WebSocket from 'ws';
import type { GuestLoginResponse, JoinRoomResponse, ServerFrame } from '@xtalk/protocol';
import { guestLogin, joinRoom, mapLimit, openSocket } from './lib/guest.js';
import type { ServerProcess } from './lib/server-process.js';
import { round, summarise, type Summary } from './lib/stats.js';

/*
 * The translation run against the server child process (LANGUAGES=en,ja, AI_PROVIDER=fake with
 * FAKE_AI_CHUNK_DELAY_MS). Half the clients of a room speak English, half Japanese; each message is translated
 * once into the other language. The fake provider streams one chunk per word (`[ja] <text>` split on
 * whitespace), each after the chunk delay, so its own latency is words x delay. Seen from a client:
 *   overhead = (translationComplete received - message frame received) - words x chunkDelay
 * (the message frame stands in for "stored and broadcast": both travel the same hub and socket). The
 * provider's chunk emit times are not visible outside the process; the in-process run measures those.
 */

export interface TranslationE2eOptions {
  rooms: number;
  clientsPerRoom: number;
  /** Messages per second per room (spread over the room's clients). */
  ratePerRoom: number;
  seconds: number;
  chunkDelayMs: number;
  drainMs: number;
  setupConcurrency: number;
  log: (line: string) => void;
}

export interface TranslationE2eResult {
  mode: 'server-process';
  params: Omit<TranslationE2eOptions, 'log'>;
  connections: number;
  messages: number;
  /** translationComplete frames expected (messages x clients in the room) and received. */
  completesExpected: number;
  completesReceived: number;
  chunksPerTranslation: number;
  nominalProviderMs: number;
  /** message frame received -> translationComplete received, per client. */
  messageToCompleteMs: Summary;
  /** messageToComplete minus words x chunkDelay. */
  overheadMs: Summary;
  /** message frame received -> first translationChunk received, per client (includes one chunk delay). */
  messageToFirstChunkMs: Summary;
  /** Gap between consecutive chunks as received, minus chunkDelay (jitter added by timers + fan-out). */
  chunkGapExcessMs: Summary;
  /** Send -> message frame received (chat fan-out while translating). */
  messageLatencyMs: Summary;
  audioFrames: number;
  errors: Record<string, number>;
  serverCpuPercent: number;
  serverRssAfterKiB: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const PREFIX = 'tr:';

interface PerClient {
  /** message id -> when the message frame arrived */
  messageAt: Map<number, number>;
  lastChunkAt: Map<number, number>;
  firstChunkSeen: Set<number>;
}

export async function runTranslationE2e(
  server: ServerProcess,
  options: TranslationE2eOptions,
): Promise<TranslationE2eResult> {
  const { log } = options;
  const total = options.rooms * options.clientsPerRoom;
  log(`translation run (server process): logging in ${total} guests...`);
  const logins = await mapLimit(Array.from({ length: total }), options.setupConcurrency, () =>
    guestLogin(server.baseUrl),
  );
  const sessions: JoinRoomResponse[] = [];
  for (let room = 0; room < options.rooms; room += 1) {
    const owner = room * options.clientsPerRoom;
    sessions[owner] = await joinRoom(server.baseUrl, (logins[owner] as GuestLoginResponse).token, null);
  }
  await mapLimit(logins, options.setupConcurrency, async (login, index) => {
    if (sessions[index]) return;
    const owner = sessions[Math.floor(index / options.clientsPerRoom) * options.clientsPerRoom];
    sessions[index] = await joinRoom(server.baseUrl, login.token, owner?.roomId ?? null);
  });

  const words = new Map<number, number>();
  const sentAt = new Map<string, number>();
  const toComplete: number[] = [];
  const overhead: number[] = [];
  const toFirstChunk: number[] = [];
  const gapExcess: number[] = [];
  const messageLatency: number[] = [];
  const errors: Record<string, number> = {};
  let measuring = false;
  let completesReceived = 0;
  let audioFrames = 0;
  const measuredIds = new Set<number>();
  const measuredKeys = new Set<string>();

  const sockets: WebSocket[] = [];
  const languages = logins.map((_, index) => (index % 2 === 0 ? 'en' : 'ja'));
  await mapLimit(logins, options.setupConcurrency, async (login, index) => {
    const state: PerClient = { messageAt: new Map(), lastChunkAt: new Map(), firstChunkSeen: new Set() };
    const onFrame = (frame: ServerFrame, receivedAt: number) => {
      if (frame.type === 'message') {
        if (!frame.message.startsWith(PREFIX)) return;
        const key = frame.message.split(' ', 1)[0] ?? '';
        const sent = sentAt.get(key);
        if (sent === undefined) return;
        if (measuredKeys.has(key)) measuredIds.add(frame.id);
        // the fake provider streams `[xx] <text>` one word per chunk
        words.set(frame.id, `[xx] ${frame.message}`.match(/\S+\s*/gu)?.length ?? 1);
        state.messageAt.set(frame.id, receivedAt);
        if (measuredIds.has(frame.id)) messageLatency.push(receivedAt - sent);
      } else if (frame.type === 'translationChunk') {
        const messageAt = state.messageAt.get(frame.originalTimestamp);
        if (messageAt === undefined || !measuredIds.has(frame.originalTimestamp)) return;
        if (!state.firstChunkSeen.has(frame.originalTimestamp)) {
          state.firstChunkSeen.add(frame.originalTimestamp);
          toFirstChunk.push(receivedAt - messageAt);
        } else {
          const last = state.lastChunkAt.get(frame.originalTimestamp);
          if (last !== undefined) gapExcess.push(receivedAt - last - options.chunkDelayMs);
        }
        state.lastChunkAt.set(frame.originalTimestamp, receivedAt);
      } else if (frame.type === 'translationComplete') {
        const messageAt = state.messageAt.get(frame.originalTimestamp);
        if (messageAt === undefined || !measuredIds.has(frame.originalTimestamp)) return;
        completesReceived += 1;
        const took = receivedAt - messageAt;
        toComplete.push(took);
        overhead.push(took - (words.get(frame.originalTimestamp) ?? 0) * options.chunkDelayMs);
      } else if (frame.type === 'error') {
        errors[frame.code] = (errors[frame.code] ?? 0) + 1;
      }
    };
    const ws = await openSocket(
      server.wsBase,
      login,
      sessions[index] as JoinRoomResponse,
      languages[index] ?? 'en',
      onFrame,
    );
    ws.on('message', (_data, isBinary) => {
      if (isBinary) audioFrames += 1;
    });
    sockets[index] = ws;
  });

  log(
    `translation run (server process): ${options.rooms} rooms x ${options.clientsPerRoom} clients, ` +
      `${options.ratePerRoom} msg/s per room, chunk delay ${options.chunkDelayMs} ms, ${options.seconds}s...`,
  );
  let sequence = 0;
  let messages = 0;
  const timers: NodeJS.Timeout[] = [];
  const intervalMs = 1000 / options.ratePerRoom;
  for (let room = 0; room < options.rooms; room += 1) {
    let turn = 0;
    const post = () => {
      // rotate the speaker so no connection comes near its rate limit; alternate en/ja speakers
      const index = room * options.clientsPerRoom + (turn++ % options.clientsPerRoom);
      const ws = sockets[index];
      if (!ws || ws.readyState !== ws.OPEN) return;
      const key = `${PREFIX}${sequence++}`;
      sentAt.set(key, performance.now());
      if (measuring) {
        messages += 1;
        measuredKeys.add(key);
      }
      ws.send(
        JSON.stringify({
          type: 'chat',
          language: languages[index],
          room: sessions[index]?.roomId,
          message: `${key} a short sentence of about ten words for the fake translator`,
          clientId: randomUUID(),
        }),
      );
    };
    timers.push(
      setTimeout(() => {
        post();
        timers.push(setInterval(post, intervalMs));
      }, Math.random() * intervalMs),
    );
  }
  await sleep(2000); // warm-up
  const cpuStart = server.cpuMs();
  const started = performance.now();
  measuring = true;
  await sleep(options.seconds * 1000);
  measuring = false;
  for (const timer of timers) clearTimeout(timer);
  const serverCpuPercent = ((server.cpuMs() - cpuStart) / (performance.now() - started)) * 100;
  const completesExpected = messages * options.clientsPerRoom;
  const deadline = performance.now() + options.drainMs;
  while (completesReceived < completesExpected && performance.now() < deadline) await sleep(50);
  const serverRssAfterKiB = server.rssKiB();
  for (const ws of sockets) ws?.close(1000);
  await sleep(1000);

  const sampleWords = words.values().next().value ?? 0;
  return {
    mode: 'server-process',
    params: {
      rooms: options.rooms,
      clientsPerRoom: options.clientsPerRoom,
      ratePerRoom: options.ratePerRoom,
      seconds: options.seconds,
      chunkDelayMs: options.chunkDelayMs,
      drainMs: options.drainMs,
      setupConcurrency: options.setupConcurrency,
    },
    connections: sockets.filter(Boolean).length,
    messages,
    completesExpected,
    completesReceived,
    chunksPerTranslation: sampleWords,
    nominalProviderMs: sampleWords * options.chunkDelayMs,
    messageToCompleteMs: summarise(toComplete),
    overheadMs: summarise(overhead),
    messageToFirstChunkMs: summarise(toFirstChunk),
    chunkGapExcessMs: summarise(gapExcess),
    messageLatencyMs: summarise(messageLatency),
    audioFrames,
    errors,
    serverCpuPercent: round(serverCpuPercent),
    serverRssAfterKiB,
  };
}

import type WebSocket from 'ws';
import type { GuestLoginResponse, JoinRoomResponse } from '@xtalk/protocol';
import { chatFrame, mapLimit, openSocket } from './lib/guest.js';
import { paceSenders, waitUntil } from './lib/pace.js';
import { loginGuests, seatInRooms } from './lib/rooms.js';
import type { ServerProcess } from './lib/server-process.js';
import { round, summarise, type Summary } from './lib/stats.js';
import { E2eTimings } from './translation/e2e-timings.js';

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

/** Half of a room's clients speak English, half Japanese, alternately. */
const languageOf = (index: number) => (index % 2 === 0 ? 'en' : 'ja');

export async function runTranslationE2e(
  server: ServerProcess,
  options: TranslationE2eOptions,
): Promise<TranslationE2eResult> {
  const { log } = options;
  const total = options.rooms * options.clientsPerRoom;
  log(`translation run (server process): logging in ${total} guests...`);
  const logins = await loginGuests(server.baseUrl, total, options.setupConcurrency);
  const sessions = await seatInRooms(
    server.baseUrl,
    logins,
    options.clientsPerRoom,
    options.setupConcurrency,
  );
  const timings = new E2eTimings(options.chunkDelayMs);
  const sockets = await openClients(server, logins, sessions, timings, options.setupConcurrency);

  log(
    `translation run (server process): ${options.rooms} rooms x ${options.clientsPerRoom} clients, ` +
      `${options.ratePerRoom} msg/s per room, chunk delay ${options.chunkDelayMs} ms, ${options.seconds}s...`,
  );
  const stop = postInEveryRoom(sockets, sessions, timings, options);
  await sleep(2000); // warm-up
  const cpuStart = server.cpuMs();
  const started = performance.now();
  timings.measuring = true;
  await sleep(options.seconds * 1000);
  timings.measuring = false;
  stop();
  const serverCpuPercent = ((server.cpuMs() - cpuStart) / (performance.now() - started)) * 100;
  const completesExpected = timings.messages * options.clientsPerRoom;
  await waitUntil(() => timings.completesReceived >= completesExpected, options.drainMs);
  const serverRssAfterKiB = server.rssKiB();
  for (const ws of sockets) ws?.close(1000);
  await sleep(1000);

  const chunksPerTranslation = timings.chunksPerTranslation();
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
    messages: timings.messages,
    completesExpected,
    completesReceived: timings.completesReceived,
    chunksPerTranslation,
    nominalProviderMs: chunksPerTranslation * options.chunkDelayMs,
    messageToCompleteMs: summarise(timings.toComplete),
    overheadMs: summarise(timings.overhead),
    messageToFirstChunkMs: summarise(timings.toFirstChunk),
    chunkGapExcessMs: summarise(timings.gapExcess),
    messageLatencyMs: summarise(timings.messageLatency),
    audioFrames: timings.audioFrames,
    errors: timings.errors,
    serverCpuPercent: round(serverCpuPercent),
    serverRssAfterKiB,
  };
}

/** Every guest's socket, in its language, its frames timed; binary frames (audio) are counted. */
async function openClients(
  server: ServerProcess,
  logins: readonly GuestLoginResponse[],
  sessions: readonly JoinRoomResponse[],
  timings: E2eTimings,
  concurrency: number,
): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  await mapLimit(logins, concurrency, async (login, index) => {
    const ws = await openSocket(
      server.wsBase,
      login,
      sessions[index]!,
      languageOf(index),
      timings.receiver(),
    );
    ws.on('message', (_data, isBinary) => {
      if (isBinary) timings.audioFrames += 1;
    });
    sockets[index] = ws;
  });
  return sockets;
}

/** Each room posts `ratePerRoom` messages a second; returns the function that stops them. */
function postInEveryRoom(
  sockets: readonly WebSocket[],
  sessions: readonly JoinRoomResponse[],
  timings: E2eTimings,
  options: TranslationE2eOptions,
): () => void {
  const turns = Array.from({ length: options.rooms }, () => 0);
  return paceSenders(options.rooms, 1000 / options.ratePerRoom, (room) => {
    // rotate the speaker so no connection comes near its rate limit; alternate en/ja speakers
    const index = room * options.clientsPerRoom + (turns[room]!++ % options.clientsPerRoom);
    const ws = sockets[index];
    if (!ws || ws.readyState !== ws.OPEN) return;
    ws.send(chatFrame(sessions[index]?.roomId, languageOf(index), timings.message()));
  });
}

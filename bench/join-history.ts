import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type WebSocket from 'ws';
import { envNumber } from './lib/env.js';
import { chatFrame, guestLogin, joinRoom, mapLimit, openSocket } from './lib/guest.js';
import { startServerProcess, type ServerProcess } from './lib/server-process.js';

/*
 * 1c. Joining a room with history (`npm run bench`; alone: `node --import tsx bench/join-history.ts` after
 * `npm run build -w @xtalk/server`). A joiner without a resume position is sent the room's recent window
 * (up to 500 messages) before READY. One server process, one language; the same number of joiners opens
 * sockets into a room with `BENCH_JOIN_HISTORY_MESSAGES` stored messages and into a room with none, and the
 * server's CPU per join is compared: what the replay adds to a join (decision 0134).
 */

export interface JoinHistorySettings {
  joiners: number;
  messages: number;
  concurrency: number;
  log: (line: string) => void;
}

export interface JoinPhase {
  joiners: number;
  cpuMsPerJoin: number;
  mainThreadCpuMsPerJoin: number;
  wallMs: number;
  /** Messages each joiner was sent before READY (the room's recent window). */
  replayedPerJoiner: number;
}

export interface JoinHistoryResult {
  messages: number;
  empty: JoinPhase;
  history: JoinPhase;
  /** CPU per join into the room with history / into the empty room. */
  ratio: number;
}

export function joinHistorySettings(log: (line: string) => void): JoinHistorySettings {
  return {
    joiners: envNumber('BENCH_JOIN_HISTORY_JOINERS', 300),
    messages: envNumber('BENCH_JOIN_HISTORY_MESSAGES', 500),
    concurrency: 16,
    log,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Per-user burst of the server's frame limit: each poster sends this many at once, none refused. */
const BURST = 8;

async function roomWithHistory(server: ServerProcess, messages: number) {
  const creator = await guestLogin(server.baseUrl);
  const room = await joinRoom(server.baseUrl, creator.token, null);
  let echoed = 0;
  const creatorSocket = await openSocket(server.wsBase, creator, room, 'en', (frame) => {
    if (frame.type === 'message') echoed += 1;
  });
  const posters = await mapLimit(Array.from({ length: Math.ceil(messages / BURST) }), 8, async () => {
    const login = await guestLogin(server.baseUrl);
    const session = await joinRoom(server.baseUrl, login.token, room.roomId);
    return openSocket(server.wsBase, login, session, 'en', () => undefined);
  });
  let sent = 0;
  for (const socket of posters) {
    for (let i = 0; i < BURST && sent < messages; i++) {
      sent += 1;
      const message = `history ${sent}: a line of chat about as long as people write them`;
      socket.send(chatFrame(room.roomId, 'en', message));
    }
  }
  const deadline = Date.now() + 60_000;
  while (echoed < messages) {
    if (Date.now() > deadline) throw new Error(`only ${echoed} of ${messages} history messages stored`);
    await sleep(50);
  }
  for (const socket of posters) socket.close();
  return { roomId: room.roomId, sockets: [creatorSocket] };
}

async function joinPhase(
  server: ServerProcess,
  roomId: string,
  settings: JoinHistorySettings,
  sockets: WebSocket[],
): Promise<JoinPhase> {
  const logins = await mapLimit(Array.from({ length: settings.joiners }), settings.concurrency, async () => {
    const login = await guestLogin(server.baseUrl);
    return { login, session: await joinRoom(server.baseUrl, login.token, roomId) };
  });
  await sleep(1000);
  const cpuBefore = server.cpuMs();
  const mainBefore = server.mainThreadCpuMs();
  const started = performance.now();
  let replayed = 0;
  const opened = await mapLimit(logins, settings.concurrency, ({ login, session }) => {
    let ready = false;
    return openSocket(server.wsBase, login, session, 'en', (frame) => {
      if (frame.type === 'system' && frame.message === 'READY') ready = true;
      else if (frame.type === 'message' && !ready) replayed += 1;
    });
  });
  const wallMs = performance.now() - started;
  // JOIN announcements go out after READY: the phase ends when the server is idle again
  await sleep(1000);
  sockets.push(...opened);
  return {
    joiners: settings.joiners,
    cpuMsPerJoin: (server.cpuMs() - cpuBefore) / settings.joiners,
    mainThreadCpuMsPerJoin: (server.mainThreadCpuMs() - mainBefore) / settings.joiners,
    wallMs,
    replayedPerJoiner: replayed / settings.joiners,
  };
}

export async function runJoinHistory(entry: string, settings: JoinHistorySettings) {
  const server = await startServerProcess({ entry, env: { LANGUAGES: 'en' } });
  const sockets: WebSocket[] = [];
  try {
    const { log } = settings;
    log(`join history: storing ${settings.messages} messages in one room...`);
    const history = await roomWithHistory(server, settings.messages);
    sockets.push(...history.sockets);
    const creator = await guestLogin(server.baseUrl);
    const emptyRoom = await joinRoom(server.baseUrl, creator.token, null);
    sockets.push(await openSocket(server.wsBase, creator, emptyRoom, 'en', () => undefined));
    // the first joins of a process warm its code up: not counted
    await joinPhase(server, emptyRoom.roomId, { ...settings, joiners: 50 }, sockets);
    const empty = await joinPhase(server, emptyRoom.roomId, settings, sockets);
    log(`  empty room: ${empty.cpuMsPerJoin.toFixed(2)} ms CPU per join`);
    const full = await joinPhase(server, history.roomId, settings, sockets);
    log(`  ${settings.messages} messages: ${full.cpuMsPerJoin.toFixed(2)} ms CPU per join`);
    const result: JoinHistoryResult = {
      messages: settings.messages,
      empty,
      history: full,
      ratio: full.cpuMsPerJoin / empty.cpuMsPerJoin,
    };
    return { result, logLines: server.logLines.map((line) => `[join-history] ${line}`) };
  } finally {
    for (const socket of sockets) socket.terminate();
    await server.stop();
  }
}

export function printJoinHistoryReport(result: JoinHistoryResult) {
  const row = (name: string, phase: JoinPhase) =>
    `  ${name.padEnd(28)} ${phase.cpuMsPerJoin.toFixed(2).padStart(6)} ms CPU per join (main thread ` +
    `${phase.mainThreadCpuMsPerJoin.toFixed(2)}), ${phase.replayedPerJoiner} messages replayed, ` +
    `${phase.joiners} joins in ${(phase.wallMs / 1000).toFixed(1)} s`;
  console.log('');
  console.log('1c. Joining a room with history (one server, joins 16 at a time)');
  console.log(row('into an empty room', result.empty));
  console.log(row(`into ${result.messages} stored messages`, result.history));
  console.log(`  ratio (history / empty): ${result.ratio.toFixed(2)}x`);
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const here = dirname(fileURLToPath(import.meta.url));
  const log = (line: string) => console.log(`[join ${new Date().toISOString().slice(11, 19)}] ${line}`);
  const hardTimeout = setTimeout(() => process.exit(2), 300_000);
  hardTimeout.unref();
  // BENCH_XTALK_ENTRY: another build of the server, as for the fan-out bench
  const entry = process.env.BENCH_XTALK_ENTRY ?? join(here, '..', 'apps/server/dist/server.js');
  runJoinHistory(entry, joinHistorySettings(log)).then(
    ({ result }) => {
      printJoinHistoryReport(result);
      console.log(JSON.stringify(result));
      process.exit(0);
    },
    (error: unknown) => {
      console.error('join history run failed:', error);
      process.exit(1);
    },
  );
}

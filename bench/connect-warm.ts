import { loadavg } from 'node:os';
import WebSocket from 'ws';
import { envNumber } from './lib/env.js';
import { mapLimit, socketTarget } from './lib/guest.js';
import { loginGuests, seatInRooms } from './lib/rooms.js';
import { quiet, startServerProcess, type ServerProcess } from './lib/server-process.js';
import { inTurn, medianRange, round } from './lib/stats.js';

/*
 * The connect on a cold server and on a warm one, XTalk beside bare `ws`:
 * `node --import tsx bench/connect-warm.ts` after `npm run build -w @xtalk/server` (not part of
 * `npm run bench`). Each run starts one server and connects BENCH_CONNECT_SOCKETS sockets to one room,
 * batch after batch, each to a room of its own and closed (its departures announced) before the next:
 * first on the fresh process, as the fan-out bench does, then BENCH_CONNECT_WARMUPS batches not counted,
 * then the warm one. The first batch pays V8's first compilation of every function on the connect path,
 * on the main thread and on its compiler threads; the warm one pays what a connect costs a server that
 * has run for a while. XTalk's guests sign in and join over HTTP before each batch (not counted). The kinds
 * take turns, the order reversed every round (BENCH_CONNECT_ROUNDS). Printed: CPU per connect, the main
 * thread's and the other threads', cold and warm, the medians with the lowest and highest beside them,
 * XTalk over `ws`, and the 1-minute load average at each run's start. XTALK_ENTRY names another build to
 * run as XTalk.
 */

type Kind = 'xtalk' | 'ws';
interface Batch {
  cpuMs: number;
  mainMs: number;
}
interface Run {
  cold: Batch;
  warm: Batch;
  load: number;
}

const sockets = envNumber('BENCH_CONNECT_SOCKETS', 1000);
const rounds = envNumber('BENCH_CONNECT_ROUNDS', 3);
const warmups = envNumber('BENCH_CONNECT_WARMUPS', 1, (value) => value >= 0);
const entries: Record<Kind, string> = {
  xtalk: process.env.XTALK_ENTRY ?? 'apps/server/dist/server.js',
  ws: 'bench/peers/ws-broadcast.mjs',
};
// a closed XTalk socket leaves the room's presence after this grace (LEAVE_GRACE_SECONDS)
const LEAVE_GRACE_MS = 5_000;

/** Opens the sockets 16 at a time, each done at `ready`; the server's CPU from quiet to quiet. */
async function measure(
  server: ServerProcess,
  urls: string[],
  ready: (socket: WebSocket, done: () => void) => void,
): Promise<{ batch: Batch; open: WebSocket[] }> {
  await quiet(server);
  const [cpu, main] = [server.cpuMs(), server.mainThreadCpuMs()];
  const open: WebSocket[] = [];
  await mapLimit(
    urls,
    16,
    (url) =>
      new Promise<void>((resolve, reject) => {
        const socket = new WebSocket(url, { perMessageDeflate: false });
        open.push(socket);
        ready(socket, resolve);
        socket.once('error', reject);
      }),
  );
  await quiet(server);
  return { batch: { cpuMs: server.cpuMs() - cpu, mainMs: server.mainThreadCpuMs() - main }, open };
}

/** XTalk: guests signed in and joined to a new room over HTTP, then their sockets with the hello in the URL. */
async function xtalkBatch(server: ServerProcess) {
  const logins = await loginGuests(server.baseUrl, sockets, 16);
  const sessions = await seatInRooms(server.baseUrl, logins, sockets, 16);
  const urls = logins.map(
    (login, index) =>
      socketTarget(server.wsBase, login.token, sessions[index]!, login.user.username, 'en').url,
  );
  return measure(server, urls, (socket, done) =>
    socket.on('message', (data: Buffer) => {
      if (data.includes('"message":"READY"')) done();
    }),
  );
}

/** Bare `ws`: a socket is connected once it is open. */
function wsBatch(server: ServerProcess, room: string) {
  const urls = Array.from({ length: sockets }, () => `${server.wsBase}/?room=${room}`);
  return measure(server, urls, (socket, done) => socket.once('open', done));
}

async function runOnce(kind: Kind): Promise<Run> {
  const load = loadavg()[0]!;
  const server = await startServerProcess({
    entry: entries[kind],
    env: { LANGUAGES: 'en' },
    startTimeoutMs: 120_000,
  });
  try {
    const batch = async (room: string) => {
      const { batch: measured, open } = await (kind === 'xtalk' ? xtalkBatch(server) : wsBatch(server, room));
      for (const socket of open) socket.terminate();
      // the next batch starts after these sockets' departures are announced
      await new Promise((resolve) => setTimeout(resolve, kind === 'xtalk' ? LEAVE_GRACE_MS : 0));
      return measured;
    };
    const cold = await batch('cold');
    for (let w = 0; w < warmups; w++) await batch(`warm-up-${w}`);
    return { cold, warm: await batch('warm'), load };
  } finally {
    await server.stop();
  }
}

const perConnect = (ms: number) => (ms * 1000) / sockets; // µs
const results: Record<Kind, Run[]> = { xtalk: [], ws: [] };
for (let r = 0; r < rounds; r++) {
  for (const kind of inTurn<Kind>(['xtalk', 'ws'], r)) {
    const run = await runOnce(kind);
    results[kind].push(run);
    const show = ({ cpuMs, mainMs }: Batch) =>
      `${round(perConnect(cpuMs), 0)} µs (main ${round(perConnect(mainMs), 0)}, other ${round(perConnect(cpuMs - mainMs), 0)})`;
    console.log(
      `round ${r + 1} ${kind}: cold ${show(run.cold)}, warm ${show(run.warm)} per connect, load ${round(run.load, 1)}`,
    );
  }
}

function summary(kind: Kind, phase: 'cold' | 'warm', part: 'cpuMs' | 'mainMs' | 'other') {
  const values = results[kind].map((run) => {
    const { cpuMs, mainMs } = run[phase];
    return perConnect(part === 'other' ? cpuMs - mainMs : run[phase][part]);
  });
  return medianRange(values);
}
for (const phase of ['cold', 'warm'] as const) {
  for (const part of ['cpuMs', 'mainMs', 'other'] as const) {
    const [x, w] = [summary('xtalk', phase, part), summary('ws', phase, part)];
    const range = ({ median, min, max }: typeof x) =>
      `${round(median, 0)} µs (${round(min, 0)}–${round(max, 0)})`;
    console.log(
      `${phase} ${part === 'cpuMs' ? 'all threads' : part === 'mainMs' ? 'main thread' : 'other threads'}: ` +
        `xtalk ${range(x)}, ws ${range(w)}, xtalk / ws ${round(x.median / w.median, 2)}`,
    );
  }
}
process.exit(0);

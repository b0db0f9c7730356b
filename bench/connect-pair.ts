import WebSocket from 'ws';
import { envNumber } from './lib/env.js';
import { guestLogin, joinRoom, mapLimit, socketTarget } from './lib/guest.js';
import { quiet, startServerProcess, type ServerProcess } from './lib/server-process.js';
import { median, round } from './lib/stats.js';

/*
 * The connect alone, two builds alternated: `node --import tsx bench/connect-pair.ts` after
 * `npm run build -w @xtalk/server`, with BENCH_CONNECT_BEFORE naming the other build's `server.js`. Each
 * round starts each build in turn (the order reverses every round), signs in and joins
 * BENCH_CONNECT_SOCKETS guests to one room over HTTP (not counted), then opens their sockets with the hello
 * in the URL, 16 at a time, until every one has READY and the server is quiet again. It prints the
 * server's CPU per connect (and the main thread's) for each build, the medians and after / before.
 * Shorter than the fan-out bench, so more pairs fit where the machine is busy.
 */

interface Measured {
  cpuMs: number;
  mainMs: number;
}

async function connectAll(server: ServerProcess, sockets: number): Promise<Measured> {
  const logins = await mapLimit(Array.from({ length: sockets }), 16, () => guestLogin(server.baseUrl));
  const created = await joinRoom(server.baseUrl, logins[0]!.token, null);
  const sessions = await mapLimit(logins, 16, (login, index) =>
    index === 0 ? Promise.resolve(created) : joinRoom(server.baseUrl, login.token, created.roomId),
  );
  await quiet(server);
  const [cpu, main] = [server.cpuMs(), server.mainThreadCpuMs()];
  const open: WebSocket[] = [];
  await mapLimit(logins, 16, (login, index) => {
    const session = sessions[index]!;
    const { url } = socketTarget(server.wsBase, login.token, session, login.user.username, 'en');
    return new Promise<void>((resolve, reject) => {
      const socket = new WebSocket(url, { perMessageDeflate: false });
      open.push(socket);
      socket.on('message', (data: Buffer) => {
        if (data.includes('"message":"READY"')) resolve();
      });
      socket.once('error', reject);
    });
  });
  await quiet(server);
  const measured = { cpuMs: server.cpuMs() - cpu, mainMs: server.mainThreadCpuMs() - main };
  for (const socket of open) socket.terminate();
  return measured;
}

async function runOnce(entry: string, sockets: number): Promise<Measured> {
  const server = await startServerProcess({ entry, env: { LANGUAGES: 'en' }, startTimeoutMs: 120_000 });
  try {
    return await connectAll(server, sockets);
  } finally {
    await server.stop();
  }
}

const before = process.env.BENCH_CONNECT_BEFORE;
if (!before) throw new Error('BENCH_CONNECT_BEFORE must name the other build (its dist/server.js)');
const builds = { before, after: process.env.BENCH_CONNECT_AFTER ?? 'apps/server/dist/server.js' };
const sockets = envNumber('BENCH_CONNECT_SOCKETS', 400);
const rounds = envNumber('BENCH_CONNECT_ROUNDS', 3);
const results: Record<'before' | 'after', Measured[]> = { before: [], after: [] };
const { loadavg } = await import('node:os');
for (let r = 0; r < rounds; r++) {
  const order = (r % 2 === 0 ? ['before', 'after'] : ['after', 'before']) as Array<'before' | 'after'>;
  for (const which of order) {
    const load = loadavg()[0]!.toFixed(1);
    const measured = await runOnce(builds[which], sockets);
    results[which].push(measured);
    const per = (ms: number) => round(ms / sockets, 3);
    console.log(
      `round ${r + 1} ${which}: ${per(measured.cpuMs)} ms CPU per connect (main ${per(measured.mainMs)}), load ${load}`,
    );
  }
}
const perConnect = (which: 'before' | 'after', key: keyof Measured) =>
  median(results[which].map((each) => each[key] / sockets));
for (const key of ['cpuMs', 'mainMs'] as const) {
  const [b, a] = [perConnect('before', key), perConnect('after', key)];
  console.log(
    `${key}: before ${round(b, 3)}, after ${round(a, 3)} ms per connect, after/before ${round(a / b, 2)}`,
  );
}
process.exit(0);

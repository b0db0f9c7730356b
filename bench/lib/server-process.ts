import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onFreePort } from '../../apps/server/src/testing/free-port.js';

/*
 * The real built server (apps/server/dist/server.js) as a child process on a free loopback port with a fresh
 * DATA_DIR, so its memory and CPU are measured apart from the load generator's.
 */

/**
 * The environment `npm start` gives the server: the `NAME=${NAME:-value}` assignments of the root
 * package.json's start script (glibc's malloc settings, docs/decisions/0133, and NODE_ENV, which a bench
 * server sets back to production). Every server a bench starts gets them, the peers of bench/peers too,
 * so all run on the same allocator settings. BENCH_START_ENV=0
 * leaves them out, to measure what a plain `node apps/server/dist/server.js` does.
 */
export function startScriptEnvironment(): Record<string, string> {
  if (process.env.BENCH_START_ENV === '0') return {};
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  return Object.fromEntries(
    [...scripts.start.matchAll(/\b([A-Z_]+)=\$\{\1:-([^}]*)\}/g)].map(([, name, value]) => [name!, value!]),
  );
}

export interface ServerProcess {
  pid: number;
  baseUrl: string;
  wsBase: string;
  dataDir: string;
  /** Lines the server wrote to stderr/stdout (LOG_LEVEL=warn, so warnings and errors only). */
  logLines: string[];
  /** Resident set size now (KiB), from /proc/<pid>/status VmRSS. */
  rssKiB(): number;
  /** Peak resident set size so far (KiB), VmHWM. */
  peakRssKiB(): number;
  /** CPU time used so far (ms, user + system), from /proc/<pid>/stat. */
  cpuMs(): number;
  /**
   * The main thread's share of it (the thread whose id is the process id): for Node, the thread that runs
   * the JavaScript and the sockets; the rest is worker threads (XTalk's database thread), GC helpers, libuv.
   */
  mainThreadCpuMs(): number;
  exited(): boolean;
  /**
   * Memory after two full GCs, from the process itself: needs `nodeArgs` with `--expose-gc --import
   * bench/peers/gc-hook.mjs` (the hook answers SIGUSR2 with a `BENCH_MEM` line).
   */
  memoryAfterGc(timeoutMs?: number): Promise<NodeJS.MemoryUsage>;
  stop(timeoutMs?: number): Promise<number | null>;
}

function statusField(pid: number, field: string): number {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(text);
  if (!match?.[1]) throw new Error(`${field} not found in /proc/${pid}/status`);
  return Number(match[1]);
}

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU time (ms) of a process (`/proc/<pid>/stat`) or of one of its threads (`/proc/<pid>/task/<tid>/stat`). */
function cpuMsOf(statPath: string): number {
  const text = readFileSync(statPath, 'utf8');
  // the command name may contain spaces; fields after the closing parenthesis are fixed
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * What every bench server runs with: production, a fresh data directory, the fake engine, and the
 * per-address limits lifted, since every load client connects from 127.0.0.1.
 */
function benchServerEnv(
  port: number,
  dataDir: string,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    ...startScriptEnvironment(),
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    ALTCHA_COST: '20',
    LOG_LEVEL: 'warn',
    AI_PROVIDER: 'fake',
    // every browser / load client connects from 127.0.0.1: lift the per-address limits (the per-user
    // ones stay at their defaults)
    RATE_LIMIT_BOTCHECK_PER_MINUTE: '100000',
    GUESTS_PER_MINUTE_PER_IP: '100000',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '100000',
    RATE_LIMIT_API_PER_MINUTE_PER_IP: '100000',
    MAX_SOCKETS_PER_IP: '100000',
    // compare the embedded store with a real PostgreSQL: BENCH_DATABASE_URL=postgres://…
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    ...extra,
  };
}

interface StartOptions {
  entry: string;
  env?: Record<string, string>;
  startTimeoutMs?: number;
  /** Node options before the entry (for example `--expose-gc`). */
  nodeArgs?: string[];
  /**
   * A port chosen beforehand (a cluster that lists its nodes' addresses), where a port another process
   * took fails the start; by default a free one, and another if it is taken before the server listens.
   */
  port?: number;
}

export async function startServerProcess(options: StartOptions): Promise<ServerProcess> {
  if (options.port !== undefined) return startAt(options, options.port);
  return onFreePort((port) => startAt(options, port));
}

async function startAt(options: StartOptions, port: number): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'xtalk-bench-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const logLines: string[] = [];
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), options.entry], {
    env: benchServerEnv(port, dataDir, options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exitCode: number | null | undefined;
  const exit = new Promise<number | null>((resolve) => {
    child.once('exit', (code, signal) => {
      exitCode = code ?? (signal ? -1 : null);
      resolve(exitCode);
    });
  });
  const memoryWaiters: Array<(usage: NodeJS.MemoryUsage) => void> = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.startsWith('BENCH_MEM ')) {
        const usage = JSON.parse(line.slice('BENCH_MEM '.length)) as NodeJS.MemoryUsage;
        for (const waiter of memoryWaiters.splice(0)) waiter(usage);
      } else if (line.trim()) logLines.push(line);
    }
    if (logLines.length > 5000) logLines.splice(0, logLines.length - 5000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const pid = child.pid;
  if (pid === undefined) throw new Error('server process did not start');

  const handle: ServerProcess = {
    pid,
    baseUrl,
    wsBase: `ws://127.0.0.1:${port}`,
    dataDir,
    logLines,
    rssKiB: () => statusField(pid, 'VmRSS'),
    peakRssKiB: () => statusField(pid, 'VmHWM'),
    cpuMs: () => cpuMsOf(`/proc/${pid}/stat`),
    mainThreadCpuMs: () => cpuMsOf(`/proc/${pid}/task/${pid}/stat`),
    exited: () => exitCode !== undefined,
    memoryAfterGc(timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error('no BENCH_MEM answer (is gc-hook loaded?)')),
          timeoutMs,
        );
        memoryWaiters.push((usage) => {
          clearTimeout(timer);
          resolve(usage);
        });
        child.kill('SIGUSR2');
      });
    },
    async stop(timeoutMs = 20_000) {
      if (exitCode === undefined) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        await exit;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
      return exitCode ?? null;
    },
  };

  // a fresh data directory is initialised in a child process first (store/db.ts): slow on a busy machine
  const deadline = Date.now() + (options.startTimeoutMs ?? 120_000);
  for (;;) {
    if (exitCode !== undefined) {
      rmSync(dataDir, { recursive: true, force: true });
      const error = new Error(`server exited (${exitCode}) before it was healthy:\n${logLines.join('\n')}`);
      // its port was taken between the pick and its listen: the caller may try another
      if (logLines.some((line) => line.includes('EADDRINUSE'))) Object.assign(error, { code: 'EADDRINUSE' });
      throw error;
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await handle.stop();
      throw new Error(`server not healthy within the start timeout:\n${logLines.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return handle;
}

/**
 * Waits until the server has used under 4 % of a core over two 250 ms polls in a row (at most `maxMs`).
 * A server under --cpu-prof never reads as quiet (the profiler's own threads): a run that profiles
 * passes a short wait, or each phase would wait the full minute and a join's hand-off to its socket
 * would expire before the socket opens, which a run without the profiler never sees.
 */
export async function quiet(server: Pick<ServerProcess, 'cpuMs'>, maxMs = 60_000): Promise<void> {
  let last = server.cpuMs();
  let calm = 0;
  const deadline = Date.now() + maxMs;
  while (calm < 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = server.cpuMs();
    calm = now - last <= 10 ? calm + 1 : 0;
    last = now;
  }
}

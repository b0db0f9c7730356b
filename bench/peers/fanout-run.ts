import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quiet, startServerProcess, type ServerProcess } from '../lib/server-process.js';
import { inTurn, median, round } from '../lib/stats.js';
import { loadAtEachRate, startGenerator, type LoadGenerator, type RateLoad } from './generator-client.js';
import type { PeerKind } from './generator-protocol.js';

/*
 * The fan-out comparison: XTalk beside a bare `ws` broadcast server and a Socket.IO rooms server, each a
 * process of its own, driven by the same load generator (a third process). Runs are interleaved (round r
 * starts with a different server) and every figure is the median over the rounds.
 */

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
export const PEER_KINDS: readonly PeerKind[] = ['xtalk', 'ws', 'socketio'];

export interface FanoutSettings {
  rounds: number;
  /** Sockets connected per run, in rooms of `roomSize`; room 0 is the measured room. */
  sockets: number;
  roomSize: number;
  rates: number[];
  seconds: number;
  warmupSeconds: number;
  senders: number;
  concurrency: number;
  /** Which servers to run (default all three). */
  kinds: readonly PeerKind[];
  /** Settings given to XTalk's server beside `LANGUAGES` (an A/B of one setting). */
  xtalkEnv?: Record<string, string> | undefined;
  /** When set, servers run with `--cpu-prof` into this directory. */
  profileDir?: string | undefined;
  log: (line: string) => void;
}

export interface FanoutRun {
  kind: PeerKind;
  round: number;
  rssAtStartKiB: number;
  /** Server CPU from the first socket opened until the server is quiet again, scaled to 2,000 sockets. */
  connectCpuMsPer2000: number;
  /** The part of connectCpuMsPer2000 spent on the server's main thread. */
  connectMainThreadCpuMsPer2000: number;
  connectWallMs: number;
  /**
   * Server CPU (ms) to connect each quarter of the rooms' members, in join order: the last quarter joins
   * a room three quarters full, so last / first ≈ 1 means filling a room is linear in members.
   */
  connectCpuMsByQuarter: number[];
  /** (RSS after GC with the sockets open − RSS after GC before) / sockets. */
  idleKiBPerConnection: number;
  idleHeapKiBPerConnection: number;
  /** serverMainThreadCpuMs: the part of serverCpuMs spent on the main thread (the rest: other threads). */
  loads: Array<RateLoad<'serverMainThreadCpuMs'>>;
  unexpectedCloses: number;
  loadAverage: number[];
}

function entryOf(kind: PeerKind): string {
  // BENCH_XTALK_ENTRY: another build of the server, to compare two builds in the same conditions
  if (kind === 'xtalk') return process.env.BENCH_XTALK_ENTRY ?? join(root, 'apps/server/dist/server.js');
  return join(here, kind === 'ws' ? 'ws-broadcast.mjs' : 'socketio-rooms.mjs');
}

/** How long a phase waits for the server to be quiet: briefly under the profiler (see quiet). */
const quietMaxMs = (settings: FanoutSettings) => (settings.profileDir ? 3000 : undefined);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens every room's members a quarter at a time (in join order), waiting for the server to be quiet
 * after each (READY sent, JOIN announced), and measures the server CPU of each quarter.
 */
async function openByQuarters(
  server: ServerProcess,
  generator: LoadGenerator,
  settings: FanoutSettings,
): Promise<{ cpuMs: number[]; mainThreadCpuMs: number; ms: number; unexpectedCloses: number }> {
  const cpuMs: number[] = [];
  const mainBefore = server.mainThreadCpuMs();
  let ms = 0;
  let unexpectedCloses = 0;
  for (let index = 0; index < 4; index++) {
    const before = server.cpuMs();
    const part = { index, of: 4 };
    const opened = await generator.ask({ cmd: 'open', concurrency: settings.concurrency, part }, 'opened');
    await quiet(server, quietMaxMs(settings));
    cpuMs.push(server.cpuMs() - before);
    ms += opened.ms;
    unexpectedCloses = opened.unexpectedCloses;
  }
  return { cpuMs, mainThreadCpuMs: server.mainThreadCpuMs() - mainBefore, ms, unexpectedCloses };
}

async function runOne(kind: PeerKind, roundIndex: number, settings: FanoutSettings): Promise<FanoutRun> {
  const { loadavg } = await import('node:os');
  const loadAverageAtStart = loadavg()[0] ?? 0;
  const server = await startServerProcess({
    entry: entryOf(kind),
    nodeArgs: [
      '--expose-gc',
      // BENCH_XTALK_NODE_ARGS: node flags for XTalk's server alone, to try one (e.g. a GC flag) side by side
      ...(kind === 'xtalk' ? (process.env.BENCH_XTALK_NODE_ARGS ?? '').split(' ').filter(Boolean) : []),
      '--import',
      join(here, 'gc-hook.mjs'),
      ...(settings.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${settings.profileDir}`] : []),
    ],
    env: { LANGUAGES: 'en', ...(kind === 'xtalk' ? settings.xtalkEnv : {}) },
    startTimeoutMs: 60_000,
  });
  const generator = startGenerator();
  try {
    await sleep(2000);
    const rssAtStartKiB = server.rssKiB();
    const rooms: number[] = [];
    for (let left = settings.sockets; left > 0; left -= settings.roomSize)
      rooms.push(Math.min(left, settings.roomSize));
    await generator.ask(
      {
        cmd: 'prepare',
        kind,
        baseUrl: server.baseUrl,
        wsBase: server.wsBase,
        rooms,
        concurrency: settings.concurrency,
      },
      'prepared',
    );
    await quiet(server, quietMaxMs(settings));
    const before = await server.memoryAfterGc();
    const opened = await openByQuarters(server, generator, settings);
    const connectCpuMs = opened.cpuMs.reduce((sum, each) => sum + each, 0);
    const after = await server.memoryAfterGc();
    const loaded = await loadAtEachRate(
      generator,
      { serverCpuMs: () => server.cpuMs(), serverMainThreadCpuMs: () => server.mainThreadCpuMs() },
      settings,
    );
    await generator.ask({ cmd: 'close' }, 'closed');
    return {
      kind,
      round: roundIndex,
      rssAtStartKiB,
      connectCpuMsPer2000: (connectCpuMs * 2000) / settings.sockets,
      connectMainThreadCpuMsPer2000: (opened.mainThreadCpuMs * 2000) / settings.sockets,
      connectWallMs: opened.ms,
      connectCpuMsByQuarter: opened.cpuMs.map((each) => round(each, 0)),
      idleKiBPerConnection: (after.rss - before.rss) / 1024 / settings.sockets,
      idleHeapKiBPerConnection:
        (after.heapUsed + after.external - before.heapUsed - before.external) / 1024 / settings.sockets,
      loads: loaded.loads,
      unexpectedCloses: loaded.unexpectedCloses ?? opened.unexpectedCloses,
      loadAverage: [round(loadAverageAtStart, 2), ...loaded.loadAverage],
    };
  } finally {
    generator.stop();
    await server.stop();
  }
}

export interface FanoutSummary {
  kind: PeerKind;
  rates: Array<{ rate: number; p50: number; p99: number; missing: number; deliveriesPerSecond: number }>;
  cpuSecondsPerMillion: number;
  /** Of cpuSecondsPerMillion, the main thread's (the rest: the other threads of the server process). */
  mainThreadCpuSecondsPerMillion: number;
  idleKiBPerConnection: number;
  idleHeapKiBPerConnection: number;
  rssAtStartMiB: number;
  connectCpuSecondsPer2000: number;
  connectMainThreadCpuSecondsPer2000: number;
  /** Connect CPU of the rooms' last quarter of members over their first (1 = linear in members). */
  fillLastOverFirst: number;
}

export interface FanoutResult {
  settings: Omit<FanoutSettings, 'log'>;
  runs: FanoutRun[];
  medians: FanoutSummary[];
}

/** Server CPU-s (all threads, or the main thread's) per million deliveries over all of a run's loads. */
function cpuPerMillion(run: FanoutRun, field: 'serverCpuMs' | 'serverMainThreadCpuMs'): number {
  const cpuMs = run.loads.reduce((sum, load) => sum + load[field], 0);
  const deliveries = run.loads.reduce((sum, load) => sum + load.deliveries, 0);
  return (cpuMs / Math.max(1, deliveries)) * 1000;
}

function summariseKind(kind: PeerKind, runs: FanoutRun[], rates: number[]): FanoutSummary {
  const mine = runs.filter((run) => run.kind === kind);
  const at = (rate: number) => mine.map((run) => run.loads.find((load) => load.rate === rate)!);
  return {
    kind,
    rates: rates.map((rate) => ({
      rate,
      p50: round(median(at(rate).map((load) => load.latencyMs.p50))),
      p99: round(median(at(rate).map((load) => load.latencyMs.p99))),
      missing: Math.max(...at(rate).map((load) => load.missing)),
      deliveriesPerSecond: round(median(at(rate).map((load) => load.deliveries / load.sendSeconds)), 0),
    })),
    cpuSecondsPerMillion: round(median(mine.map((run) => cpuPerMillion(run, 'serverCpuMs')))),
    mainThreadCpuSecondsPerMillion: round(
      median(mine.map((run) => cpuPerMillion(run, 'serverMainThreadCpuMs'))),
    ),
    idleKiBPerConnection: round(median(mine.map((run) => run.idleKiBPerConnection))),
    idleHeapKiBPerConnection: round(median(mine.map((run) => run.idleHeapKiBPerConnection))),
    rssAtStartMiB: round(median(mine.map((run) => run.rssAtStartKiB / 1024)), 0),
    connectCpuSecondsPer2000: round(median(mine.map((run) => run.connectCpuMsPer2000 / 1000)), 2),
    connectMainThreadCpuSecondsPer2000: round(
      median(mine.map((run) => run.connectMainThreadCpuMsPer2000 / 1000)),
      2,
    ),
    fillLastOverFirst: round(
      median(
        mine.map((run) => {
          const quarters = run.connectCpuMsByQuarter;
          return (quarters.at(-1) ?? NaN) / Math.max(1, quarters[0] ?? NaN);
        }),
      ),
      2,
    ),
  };
}

export async function runFanout(settings: FanoutSettings): Promise<FanoutResult> {
  const runs: FanoutRun[] = [];
  for (let r = 0; r < settings.rounds; r++) {
    for (const kind of inTurn(settings.kinds, r)) {
      settings.log(`fan-out round ${r + 1}/${settings.rounds}: ${kind}`);
      const run = await runOne(kind, r, settings);
      const summary = run.loads.map(
        (load) =>
          `${load.rate}/s p50 ${round1(load.latencyMs.p50)} p99 ${round1(load.latencyMs.p99)} missing ${load.missing}` +
          ` CPU ${round1(load.serverCpuMs)} ms (main thread ${round1(load.serverMainThreadCpuMs)})`,
      );
      const quarters = run.connectCpuMsByQuarter.join('/');
      const main = round1(run.connectMainThreadCpuMsPer2000);
      settings.log(
        `  ${kind}: connect ${round1(run.connectCpuMsPer2000)} ms CPU (main thread ${main}; quarters ${quarters} ms), ${summary.join('; ')}`,
      );
      runs.push(run);
    }
  }
  const { log: _log, ...rest } = settings;
  return {
    settings: rest,
    runs,
    medians: settings.kinds.map((kind) => summariseKind(kind, runs, settings.rates)),
  };
}

const round1 = (value: number) => round(value, 1);

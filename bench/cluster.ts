import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { freePort } from '../apps/server/src/testing/free-port.js';
import { envNumber } from './lib/env.js';
import { inTurn, round } from './lib/stats.js';
import { scratchDatabase } from '../apps/server/src/testing/scratch-database.js';
import { startRedis, stopRedis } from '../apps/server/src/testing/redis-server.js';
import { runTopology, serverEntry, type ClusterServices, type TopologyRun } from './cluster-run.js';
import { printClusterReport, printInterleaved } from './cluster-report.js';

/*
 * The cluster part of `npm run bench` (run there when BENCH_DATABASE_URL is set, since it needs a
 * PostgreSQL) and `npm run bench:cluster` alone: one room spread evenly over three nodes on PostgreSQL and
 * Redis against one node on the same PostgreSQL, in the same run; then with room affinity (the room on
 * its home) and as a hot room (filling its nodes in turn). The database is the bench's own (created
 * on BENCH_DATABASE_URL's server, dropped after); Redis is a redis-server of its own on a free port, so its
 * counters are this run's alone (BENCH_REDIS_URL uses another one instead, never flushed).
 * BENCH_CLUSTER_BEFORE names another build's server.js, run interleaved with this one, round by round
 * (BENCH_CLUSTER_ROUNDS), each build on a database of its own.
 */

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

/** One build's runs in one round: each cluster against the one node of the same round. */
export interface BuildRound {
  /** `this`, or `before` (BENCH_CLUSTER_BEFORE). */
  build: string;
  round: number;
  single: TopologyRun;
  /** The room spread over the nodes, member i on node i mod n (the `spread` layout). */
  cluster?: TopologyRun;
  /** The cluster with a small room: Redis per message must not grow with members. */
  small?: TopologyRun;
  /** The same two rooms with room affinity on: members on the room's home (decision 0237). */
  affinity?: TopologyRun;
  affinitySmall?: TopologyRun;
  /** The room as a hot room: its nodes filled in turn, a share each (decision 0250). */
  hot?: TopologyRun;
}

/**
 * The runs a round can hold, by their names in BENCH_CLUSTER_LAYOUTS, each with the key its run has in a
 * round. One node always runs: every ratio is to it.
 */
const LAYOUTS = {
  single: 'single',
  spread: 'cluster',
  small: 'small',
  affinity: 'affinity',
  affinitySmall: 'affinitySmall',
  hot: 'hot',
} as const;
type Layout = keyof typeof LAYOUTS;

function layoutsFrom(text: string | undefined): Set<Layout> {
  const names = (text ?? Object.keys(LAYOUTS).join(',')).split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(name in LAYOUTS));
  if (unknown.length > 0) {
    throw new Error(
      `BENCH_CLUSTER_LAYOUTS: unknown ${unknown.join(', ')}; known: ${Object.keys(LAYOUTS).join(', ')}`,
    );
  }
  return new Set(['single', ...names] as Layout[]);
}

export interface ClusterResult {
  date: string;
  settings: Record<string, unknown>;
  runs: BuildRound[];
}

export function clusterSettings(log: (line: string) => void) {
  const nodes = envNumber('BENCH_CLUSTER_NODES', 3, (v) => Number.isInteger(v) && v >= 2);
  const members = envNumber('BENCH_CLUSTER_MEMBERS', 1500, Number.isInteger);
  return {
    entry: serverEntry(root),
    before: process.env.BENCH_CLUSTER_BEFORE,
    rounds: envNumber('BENCH_CLUSTER_ROUNDS', 1, Number.isInteger),
    nodes,
    members,
    smallMembers: envNumber('BENCH_CLUSTER_SMALL_MEMBERS', 150, (v) => Number.isInteger(v) && v >= 0),
    rates: (process.env.BENCH_CLUSTER_RATES ?? '20,50').split(',').map(Number),
    seconds: envNumber('BENCH_CLUSTER_SECONDS', 6),
    warmupSeconds: envNumber('BENCH_CLUSTER_WARMUP_SECONDS', 2),
    senders: envNumber('BENCH_FANOUT_SENDERS', 50),
    concurrency: envNumber('BENCH_SETUP_CONCURRENCY', 16),
    postgresSettleMs: envNumber('BENCH_CLUSTER_PG_SETTLE_MS', 11_000, (v) => v >= 0),
    withAffinity: process.env.BENCH_CLUSTER_AFFINITY !== '0',
    layouts: layoutsFrom(process.env.BENCH_CLUSTER_LAYOUTS),
    profileDir: process.env.BENCH_CLUSTER_PROFILE_DIR,
    /** A hot room's share of a node: by default the room fills every node evenly; 0 leaves the run out. */
    hotPerNode: envNumber('BENCH_CLUSTER_HOT_PER_NODE', Math.ceil(members / nodes), (v) => v >= 0),
    log,
  };
}
type Settings = ReturnType<typeof clusterSettings>;

export async function runCluster(settings: Settings): Promise<ClusterResult> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const builds = [{ build: 'this', entry: settings.entry }];
  if (settings.before) builds.push({ build: 'before', entry: settings.before });
  // each build on a database of its own: an older build need not know a newer one's migrations
  const databases = builds.map(({ build }) =>
    scratchDatabase(build === 'this' ? 'xtalk_bench_cluster' : `xtalk_bench_cluster_${build}`, adminUrl),
  );
  let ownRedis: ChildProcess | undefined;
  let redisUrl = process.env.BENCH_REDIS_URL;
  if (!redisUrl) {
    const port = await freePort();
    ownRedis = await startRedis(port);
    redisUrl = `redis://127.0.0.1:${port}`;
  }
  const redis = new Redis(redisUrl);
  try {
    for (const database of databases) await database.create();
    const runs: BuildRound[] = [];
    for (let r = 0; r < settings.rounds; r++) {
      for (const build of inTurn(builds, r)) {
        const started = Date.now();
        const databaseUrl = databases[builds.indexOf(build)]!.url;
        settings.log(`round ${r + 1}/${settings.rounds}, build ${build.build} (${build.entry})`);
        const run = await runBuild({ ...settings, entry: build.entry }, { databaseUrl, redisUrl, redis });
        runs.push({ build: build.build, round: r, ...run });
        settings.log(`  build ${build.build} took ${round((Date.now() - started) / 60_000, 1)} min`);
      }
    }
    const { log: _log, entry: _entry, layouts, ...rest } = settings;
    return { date: new Date().toISOString(), settings: { ...rest, layouts: [...layouts] }, runs };
  } finally {
    redis.disconnect();
    if (ownRedis) await stopRedis(ownRedis);
    for (const database of databases) await database.drop();
  }
}

/** One build's round: one node, the room spread over the nodes, then with affinity, then hot. */
async function runBuild(
  settings: Settings,
  services: Required<ClusterServices>,
): Promise<Omit<BuildRound, 'build' | 'round'>> {
  const { log, members, smallMembers, nodes, layouts, withAffinity, hotPerNode } = settings;
  const step = async (
    what: string,
    overrides: Partial<Parameters<typeof runTopology>[0]>,
    withRedis = true,
  ) => {
    log(what);
    const run = await runTopology(
      { ...settings, ...overrides },
      withRedis ? services : { databaseUrl: services.databaseUrl },
    );
    log(`  ${describe(run)}`);
    return run;
  };
  // each layout runs when it is listed and the knobs that size it leave it in
  const planned: Array<[Layout, boolean, string, Partial<Parameters<typeof runTopology>[0]>]> = [
    ['spread', true, `${nodes} nodes, ${members} members on node i mod ${nodes}`, {}],
    ['small', smallMembers > 0, `${nodes} nodes, ${smallMembers} members`, { members: smallMembers }],
    ['affinity', withAffinity, `${nodes} nodes with room affinity, ${members} members`, { affinity: true }],
    [
      'affinitySmall',
      withAffinity && smallMembers > 0,
      `${nodes} nodes with room affinity, ${smallMembers} members`,
      { members: smallMembers, affinity: true },
    ],
    [
      'hot',
      withAffinity && hotPerNode > 0,
      `${nodes} nodes, a hot room: ${members} members, ${hotPerNode} per node`,
      { affinity: true, perNode: hotPerNode },
    ],
  ];
  const result: Omit<BuildRound, 'build' | 'round'> = {
    single: await step(`one node, ${members} members`, { nodes: 1 }, false),
  };
  for (const [layout, sized, what, overrides] of planned) {
    if (layouts.has(layout) && sized) result[LAYOUTS[layout]] = await step(what, overrides);
  }
  return result;
}

function describe(run: TopologyRun): string {
  const loads = run.loads.map(
    (load) =>
      `${load.rate}/s p50 ${round(load.latencyMs.p50)} p99 ${round(load.latencyMs.p99)} missing ` +
      `${load.missing} refused ${JSON.stringify(load.refused)} out of order ${load.outOfOrder} skipped ` +
      `${load.skipped} CPU ${round(load.cpuSecondsPerMillion)} s/M (main threads ` +
      `${round((load.mainThreadsCpuMs / load.serverCpuMs) * 100, 0)}%; per node ${load.eachNodeCpuMs.join('/')} ms)`,
  );
  return `${loads.join('; ')}; sockets per node ${Object.values(run.sockets).join('/')}`;
}

export function saveClusterResult(result: ClusterResult): string {
  const out = process.env.BENCH_CLUSTER_OUT ?? join(here, 'results', 'cluster.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  return out;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const log = (line: string) => console.log(`[cluster ${new Date().toISOString().slice(11, 19)}] ${line}`);
  const settings = clusterSettings(log);
  const perRound = settings.before ? 2 : 1;
  const defaultTimeout = 900 * settings.rounds * perRound;
  const hardTimeout = setTimeout(
    () => process.exit(2),
    envNumber('BENCH_TIMEOUT_SECONDS', defaultTimeout) * 1000,
  );
  hardTimeout.unref();
  runCluster(settings).then(
    (result) => {
      printClusterReport(result.runs.findLast((run) => run.build === 'this')!);
      printInterleaved(result.runs);
      log(`results written to ${saveClusterResult(result)}`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error('cluster run failed:', error);
      process.exit(1);
    },
  );
}

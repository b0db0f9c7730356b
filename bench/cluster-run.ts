import { join } from 'node:path';
import { freePort } from '../apps/server/src/testing/free-port.js';
import { loadavg } from 'node:os';
import type { Redis } from 'ioredis';
import { quiet, startServerProcess, type ServerProcess } from './lib/server-process.js';
import {
  postgresDelta,
  postgresSnapshot,
  redisDelta,
  redisSnapshot,
  type PostgresSnapshot,
  type RedisSnapshot,
} from './lib/service-stats.js';
import { round } from './lib/stats.js';
import { loadAtEachRate, startGenerator, type RateLoad } from './peers/generator-client.js';

/*
 * One room spread evenly over several XTalk nodes that share a PostgreSQL and a Redis, driven by the
 * fan-out bench's load generator (each member signs in, joins and connects on its node in turn). A run
 * measures the nodes' CPU together, and what Redis and PostgreSQL did for it from their own counters.
 */

export interface ClusterServices {
  databaseUrl: string;
  /** Unset: the nodes run without Redis (one node, the in-process bus). */
  redisUrl?: string;
  redis?: Redis;
}

export interface TopologySettings {
  entry: string;
  nodes: number;
  members: number;
  rates: number[];
  seconds: number;
  warmupSeconds: number;
  senders: number;
  concurrency: number;
  /**
   * How long PostgreSQL's counters are given to settle before and after a load: an idle backend reports
   * what it did within 10 s (PGSTAT_IDLE_INTERVAL), not at once.
   */
  postgresSettleMs: number;
  /** The nodes list their addresses (PUBLIC_WS_ENDPOINTS) and members connect to the room's home. */
  affinity?: boolean;
  /**
   * With affinity, the people of a room one node takes (ROOM_PEOPLE_PER_NODE, decision 0250): the room is
   * hot beyond it and spreads over its nodes; each member connects before the next joins, so each join
   * counts the people in. Unset: the whole room is on its home.
   */
  perNode?: number;
  /** When set, every node runs with `--cpu-prof` into a folder of this run's own under it. */
  profileDir?: string | undefined;
  log: (line: string) => void;
}

export interface RateRun extends RateLoad<'mainThreadsCpuMs'> {
  /** Each node's CPU over the whole load (warm-up included), in the order started. */
  eachNodeCpuMs: number[];
  /** Messages sent in the whole load (warm-up included), which the service counters span. */
  sent: number;
  redis?: RedisSnapshot;
  postgres: PostgresSnapshot;
}

export interface TopologyRun {
  nodes: number;
  affinity?: boolean;
  perNode?: number;
  members: number;
  /** Undefined for a hot room's run, whose members connect while the others join. */
  connectCpuMs?: number;
  /** The members' sockets per node (by address). */
  sockets: Record<string, number>;
  loads: RateRun[];
  unexpectedCloses: number;
  loadAverage: number[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startNodes(settings: TopologySettings, services: ClusterServices): Promise<ServerProcess[]> {
  const ports = await Promise.all(Array.from({ length: settings.nodes }, () => freePort()));
  const listed: Record<string, string> = settings.affinity
    ? {
        PUBLIC_WS_ENDPOINTS: ports.map((port) => `ws://127.0.0.1:${port}`).join(','),
        ROOM_PEOPLE_PER_NODE: String(settings.perNode ?? settings.members),
      }
    : {};
  const start = (port: number) =>
    startServerProcess({
      entry: settings.entry,
      env: {
        LANGUAGES: 'en',
        DATABASE_URL: services.databaseUrl,
        AUTH_SECRET: 'bench-cluster-secret-shared-by-every-node',
        ...(services.redisUrl ? { REDIS_URL: services.redisUrl } : {}),
        ...listed,
      },
      startTimeoutMs: 60_000,
      port,
      nodeArgs: settings.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDirOf(settings)}`] : [],
    });
  // the first node migrates the database; the others start on it together
  const first = await start(ports[0]!);
  const rest = await Promise.allSettled(ports.slice(1).map(start));
  const started = [first, ...rest.flatMap((each) => (each.status === 'fulfilled' ? [each.value] : []))];
  const failed = rest.find((each) => each.status === 'rejected');
  if (failed) {
    await Promise.allSettled(started.map((node) => node.stop()));
    throw failed.reason;
  }
  return started;
}

/** One run's profiles: by node count, how members are placed, and room size. */
const profileDirOf = (settings: TopologySettings) => {
  const placed = settings.perNode ? 'hot' : settings.affinity ? 'affinity' : 'spread';
  return join(settings.profileDir!, `${settings.nodes}-nodes-${placed}-${settings.members}`);
};

/** Every node's CPU together, for `quiet` and the per-delivery figures. */
const together = (nodes: ServerProcess[]) => ({
  cpuMs: () => nodes.reduce((sum, node) => sum + node.cpuMs(), 0),
  /** The nodes' main threads (JavaScript and sockets); the rest is GC helpers, libuv and other threads. */
  mainThreadsCpuMs: () => nodes.reduce((sum, node) => sum + node.mainThreadCpuMs(), 0),
  /** Each node's CPU, in the order started. */
  eachCpuMs: () => nodes.map((node) => node.cpuMs()),
});

/** One load with what Redis and PostgreSQL did for it, their counters given time to settle after it. */
async function withServiceCounters(
  rate: number,
  load: () => Promise<RateLoad<'mainThreadsCpuMs'>>,
  settings: TopologySettings,
  services: ClusterServices,
  eachCpuMs: () => number[],
): Promise<RateRun> {
  const redisBefore = services.redis ? await redisSnapshot(services.redis) : undefined;
  const postgresBefore = await postgresSnapshot(services.databaseUrl);
  const nodesBefore = eachCpuMs();
  const loaded = await load();
  const eachNodeCpuMs = eachCpuMs().map((after, i) => after - nodesBefore[i]!);
  await sleep(settings.postgresSettleMs);
  const redisAfter = services.redis ? await redisSnapshot(services.redis) : undefined;
  const postgresAfter = await postgresSnapshot(services.databaseUrl);
  return {
    ...loaded,
    eachNodeCpuMs,
    sent: Math.ceil((settings.warmupSeconds + settings.seconds) * rate),
    ...(redisBefore && redisAfter ? { redis: redisDelta(redisBefore, redisAfter) } : {}),
    postgres: postgresDelta(postgresBefore, postgresAfter),
  };
}

export async function runTopology(
  settings: TopologySettings,
  services: ClusterServices,
): Promise<TopologyRun> {
  const loadAverage = [round(loadavg()[0] ?? 0, 2)];
  const nodes = await startNodes(settings, services);
  const cluster = together(nodes);
  const generator = startGenerator();
  try {
    const first = nodes[0]!;
    const hot = settings.affinity === true && settings.perNode !== undefined;
    const { sockets } = await generator.ask(
      {
        cmd: 'prepare',
        kind: 'xtalk',
        baseUrl: first.baseUrl,
        wsBase: first.wsBase,
        nodes: nodes.map((node) => ({ baseUrl: node.baseUrl, wsBase: node.wsBase })),
        rooms: [settings.members],
        concurrency: settings.concurrency,
        openOnJoin: hot,
      },
      'prepared',
    );
    await quiet(cluster);
    const connectBefore = cluster.cpuMs();
    const opened = await generator.ask({ cmd: 'open', concurrency: settings.concurrency }, 'opened');
    await quiet(cluster);
    const connectCpuMs = hot ? undefined : cluster.cpuMs() - connectBefore;
    await sleep(settings.postgresSettleMs);
    const counters = { serverCpuMs: cluster.cpuMs, mainThreadsCpuMs: cluster.mainThreadsCpuMs };
    const loaded = await loadAtEachRate(generator, counters, settings, (rate, load) =>
      withServiceCounters(rate, load, settings, services, cluster.eachCpuMs),
    );
    await generator.ask({ cmd: 'close' }, 'closed');
    return {
      nodes: settings.nodes,
      ...(settings.affinity ? { affinity: true } : {}),
      ...(hot ? { perNode: settings.perNode } : {}),
      members: settings.members,
      ...(connectCpuMs === undefined ? {} : { connectCpuMs }),
      sockets,
      loads: loaded.loads,
      unexpectedCloses: loaded.unexpectedCloses ?? opened.unexpectedCloses,
      loadAverage: [...loadAverage, ...loaded.loadAverage],
    };
  } finally {
    generator.stop();
    await Promise.allSettled(nodes.map((node) => node.stop()));
  }
}

export const serverEntry = (root: string) =>
  process.env.BENCH_XTALK_ENTRY ?? join(root, 'apps/server/dist/server.js');

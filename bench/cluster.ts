import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { freePort } from '../apps/server/src/testing/free-port.js';
import { envNumber } from './lib/env.js';
import { round } from './lib/stats.js';
import { scratchDatabase } from '../apps/server/src/testing/scratch-database.js';
import { startRedis, stopRedis } from '../apps/server/src/testing/redis-server.js';
import { runTopology, serverEntry, type RateRun, type TopologyRun } from './cluster-run.js';

/*
 * The cluster part of `npm run bench` (run there when BENCH_DATABASE_URL is set, since it needs a
 * PostgreSQL) and `npm run bench:cluster` alone: one room spread evenly over three nodes on PostgreSQL and
 * Redis against one node on the same PostgreSQL, in the same run. The database is the bench's own (created
 * on BENCH_DATABASE_URL's server, dropped after); Redis is a redis-server of its own on a free port, so its
 * counters are this run's alone (BENCH_REDIS_URL uses another one instead, never flushed).
 */

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

export interface ClusterResult {
  date: string;
  settings: Record<string, unknown>;
  single: TopologyRun;
  cluster: TopologyRun;
  /** The cluster with a small room: Redis per message must not grow with members. */
  small?: TopologyRun;
  /** The same two rooms with room affinity on: members on the room's home (decision 0237). */
  affinity?: TopologyRun;
  affinitySmall?: TopologyRun;
}

export function clusterSettings(log: (line: string) => void) {
  return {
    entry: serverEntry(root),
    nodes: envNumber('BENCH_CLUSTER_NODES', 3, (v) => Number.isInteger(v) && v >= 2),
    members: envNumber('BENCH_CLUSTER_MEMBERS', 1500, Number.isInteger),
    smallMembers: envNumber('BENCH_CLUSTER_SMALL_MEMBERS', 150, (v) => Number.isInteger(v) && v >= 0),
    rates: (process.env.BENCH_CLUSTER_RATES ?? '20,50').split(',').map(Number),
    seconds: envNumber('BENCH_CLUSTER_SECONDS', 6),
    warmupSeconds: envNumber('BENCH_CLUSTER_WARMUP_SECONDS', 2),
    senders: envNumber('BENCH_FANOUT_SENDERS', 50),
    concurrency: envNumber('BENCH_SETUP_CONCURRENCY', 16),
    postgresSettleMs: envNumber('BENCH_CLUSTER_PG_SETTLE_MS', 11_000, (v) => v >= 0),
    withAffinity: process.env.BENCH_CLUSTER_AFFINITY !== '0',
    log,
  };
}

export async function runCluster(settings: ReturnType<typeof clusterSettings>): Promise<ClusterResult> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const database = scratchDatabase('xtalk_bench_cluster', adminUrl);
  await database.create();
  let ownRedis: ChildProcess | undefined;
  let redisUrl = process.env.BENCH_REDIS_URL;
  if (!redisUrl) {
    const port = await freePort();
    ownRedis = await startRedis(port);
    redisUrl = `redis://127.0.0.1:${port}`;
  }
  const redis = new Redis(redisUrl);
  try {
    const { log } = settings;
    log(`one node, ${settings.members} members, PostgreSQL ${database.url.replace(/\/\/[^@]*@/, '//')}`);
    const single = await runTopology({ ...settings, nodes: 1 }, { databaseUrl: database.url });
    log(`  ${describe(single)}`);
    log(`${settings.nodes} nodes on Redis ${redisUrl}, the same room size`);
    const services = { databaseUrl: database.url, redisUrl, redis };
    const cluster = await runTopology(settings, services);
    log(`  ${describe(cluster)}`);
    let small: TopologyRun | undefined;
    if (settings.smallMembers > 0) {
      log(`${settings.nodes} nodes, ${settings.smallMembers} members (Redis per message against room size)`);
      small = await runTopology({ ...settings, members: settings.smallMembers }, services);
      log(`  ${describe(small)}`);
    }
    const affinity = settings.withAffinity ? await affinityRuns(settings, services) : {};
    const { log: _log, entry: _entry, ...rest } = settings;
    return {
      date: new Date().toISOString(),
      settings: rest,
      single,
      cluster,
      ...(small ? { small } : {}),
      ...affinity,
    };
  } finally {
    redis.disconnect();
    if (ownRedis) await stopRedis(ownRedis);
    await database.drop();
  }
}

/** The cluster again with room affinity on: the same room, then the small one. */
async function affinityRuns(
  settings: ReturnType<typeof clusterSettings>,
  services: Parameters<typeof runTopology>[1],
): Promise<Pick<ClusterResult, 'affinity' | 'affinitySmall'>> {
  const { log } = settings;
  log(`${settings.nodes} nodes with room affinity, ${settings.members} members`);
  const affinity = await runTopology({ ...settings, affinity: true }, services);
  log(`  ${describe(affinity)}`);
  if (settings.smallMembers === 0) return { affinity };
  log(`${settings.nodes} nodes with room affinity, ${settings.smallMembers} members`);
  const affinitySmall = await runTopology(
    { ...settings, members: settings.smallMembers, affinity: true },
    services,
  );
  log(`  ${describe(affinitySmall)}`);
  return { affinity, affinitySmall };
}

function describe(run: TopologyRun): string {
  return run.loads
    .map(
      (load) =>
        `${load.rate}/s p50 ${round(load.latencyMs.p50)} p99 ${round(load.latencyMs.p99)} missing ` +
        `${load.missing} CPU ${round(load.cpuSecondsPerMillion)} s/M`,
    )
    .join('; ');
}

const perMessage = (value: number, load: RateRun) => value / Math.max(1, load.sent);

export function printClusterReport(result: ClusterResult): void {
  const { single, cluster, small, affinity, affinitySmall } = result;
  const lines = [
    '',
    `Cluster: one ${cluster.members}-member room over ${cluster.nodes} nodes (PostgreSQL + Redis) against one node (same PostgreSQL)`,
    `load average ${[...single.loadAverage, ...cluster.loadAverage].join(', ')}`,
    '| | one node | cluster | cluster / one |',
    '| --- | --- | --- | --- |',
  ];
  cluster.loads.forEach((load, i) => {
    const one = single.loads[i]!;
    lines.push(
      `| ${load.rate} msg/s p50 / p99 ms | ${round(one.latencyMs.p50)} / ${round(one.latencyMs.p99)} | ` +
        `${round(load.latencyMs.p50)} / ${round(load.latencyMs.p99)} | ` +
        `${round(load.latencyMs.p99 / Math.max(0.1, one.latencyMs.p99), 2)}× (p99) |`,
      `| ${load.rate} msg/s CPU-s per million deliveries (all nodes) | ${round(one.cpuSecondsPerMillion)} | ` +
        `${round(load.cpuSecondsPerMillion)} | **${round(load.cpuSecondsPerMillion / one.cpuSecondsPerMillion, 2)}×** |`,
      `| ${load.rate} msg/s missing | ${one.missing} | ${load.missing} | |`,
    );
  });
  const connect = cluster.connectCpuMs / Math.max(1, single.connectCpuMs);
  lines.push(
    `| connect CPU for the room (all nodes) | ${round(single.connectCpuMs / 1000, 2)} s | ${round(cluster.connectCpuMs / 1000, 2)} s | ${round(connect, 2)}× |`,
  );
  if (affinity) lines.push(...affinityRows(single, affinity));
  lines.push(
    '',
    '| per message sent | room | Redis commands (of which PUBLISH) | Redis bytes in + out | PostgreSQL transactions | rows inserted / updated |',
    '| --- | --- | --- | --- | --- | --- |',
  );
  for (const run of [single, cluster, small, affinity, affinitySmall].filter((each) => each !== undefined)) {
    for (const load of run.loads) {
      const redis = load.redis;
      const redisCells = redis
        ? `${round(perMessage(redis.commands, load), 2)} (${round(perMessage(redis.calls.publish ?? 0, load), 2)}) | ` +
          `${round(perMessage(redis.bytesIn + redis.bytesOut, load), 0)}`
        : 'no Redis | no Redis';
      const pg = load.postgres;
      lines.push(
        `| ${load.rate} msg/s, ${run.nodes} node${run.nodes > 1 ? 's' : ''}${run.affinity ? ', affinity' : ''} | ${run.members} | ${redisCells} | ` +
          `${round(perMessage(pg.transactions, load), 2)} | ${round(perMessage(pg.inserted, load), 2)} / ${round(perMessage(pg.updated, load), 2)} |`,
      );
    }
  }
  const calls = cluster.loads.at(-1)?.redis?.calls ?? {};
  lines.push(`Redis commands in the cluster's last load: ${JSON.stringify(calls)}`);
  console.log(lines.join('\n'));
}

/** The cluster with room affinity on against the same one node: CPU per delivery and connect CPU. */
function affinityRows(single: TopologyRun, affinity: TopologyRun): string[] {
  const rows = [
    '',
    `With room affinity (decision 0237): the room's members on its home node, ${affinity.nodes} nodes running`,
    '| | one node | cluster, affinity | cluster / one |',
    '| --- | --- | --- | --- |',
  ];
  affinity.loads.forEach((load, i) => {
    const one = single.loads[i]!;
    rows.push(
      `| ${load.rate} msg/s CPU-s per million deliveries (all nodes) | ${round(one.cpuSecondsPerMillion)} | ` +
        `${round(load.cpuSecondsPerMillion)} | **${round(load.cpuSecondsPerMillion / one.cpuSecondsPerMillion, 2)}×** |`,
      `| ${load.rate} msg/s p99 ms / missing | ${round(one.latencyMs.p99)} / ${one.missing} | ` +
        `${round(load.latencyMs.p99)} / ${load.missing} | |`,
    );
  });
  const connect = affinity.connectCpuMs / Math.max(1, single.connectCpuMs);
  rows.push(
    `| connect CPU for the room (all nodes) | ${round(single.connectCpuMs / 1000, 2)} s | ${round(affinity.connectCpuMs / 1000, 2)} s | ${round(connect, 2)}× |`,
  );
  return rows;
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
  const hardTimeout = setTimeout(() => process.exit(2), envNumber('BENCH_TIMEOUT_SECONDS', 900) * 1000);
  hardTimeout.unref();
  runCluster(clusterSettings(log)).then(
    (result) => {
      printClusterReport(result);
      log(`results written to ${saveClusterResult(result)}`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error('cluster run failed:', error);
      process.exit(1);
    },
  );
}

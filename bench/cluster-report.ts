import type { BuildRound } from './cluster.js';
import type { RateRun, TopologyRun } from './cluster-run.js';
import { medianRange, round } from './lib/stats.js';

/*
 * The cluster bench's tables: one round of this build (one node against the room spread, with affinity,
 * hot), then, over interleaved rounds, each cluster's CPU per delivery against the same round's one node,
 * and this build's against the other build's, as the median and the range of the rounds' ratios.
 */

const perMessage = (value: number, load: RateRun) => value / Math.max(1, load.sent);
const times = (value: number) => `${round(value, 2)}×`;
const connectOf = (run: TopologyRun) =>
  run.connectCpuMs === undefined ? '—' : `${round(run.connectCpuMs / 1000, 2)} s`;

export function printClusterReport(result: BuildRound): void {
  const { single, cluster, small, affinity, affinitySmall, hot } = result;
  const clusters = [cluster, small, affinity, affinitySmall, hot].filter((each) => each !== undefined);
  const lines = [
    '',
    `Cluster: one ${single.members}-member room over ${clusters[0]?.nodes ?? '—'} nodes (PostgreSQL + Redis) against one node (same PostgreSQL)`,
    `load average ${[single, ...clusters].flatMap((run) => run.loadAverage).join(', ')}`,
  ];
  if (cluster) lines.push(...against(single, cluster, `cluster, members on node i mod ${cluster.nodes}`));
  if (affinity) {
    lines.push(
      '',
      `With room affinity (decision 0237): the room's members on its home node, ${affinity.nodes} nodes running`,
    );
    lines.push(...against(single, affinity, 'cluster, affinity'));
  }
  if (hot) {
    const sockets = Object.values(hot.sockets).join(' / ');
    lines.push('', `A hot room (decision 0250): ${hot.perNode} people per node, sockets per node ${sockets}`);
    lines.push(...against(single, hot, 'cluster, hot room'));
  }
  lines.push(
    '',
    '| per message sent | room | Redis commands (of which PUBLISH) | Redis bytes in + out | PostgreSQL transactions | rows inserted / updated |',
    '| --- | --- | --- | --- | --- | --- |',
  );
  for (const run of [single, ...clusters]) {
    for (const load of run.loads) lines.push(perMessageRow(run, load));
  }
  const calls = clusters[0]?.loads.at(-1)?.redis?.calls ?? {};
  lines.push(`Redis commands in the cluster's last load: ${JSON.stringify(calls)}`);
  console.log(lines.join('\n'));
}

/** A cluster run against the same round's one node: latency, CPU per delivery, connect CPU. */
function against(single: TopologyRun, run: TopologyRun, name: string): string[] {
  const rows = [`| | one node | ${name} | cluster / one |`, '| --- | --- | --- | --- |'];
  run.loads.forEach((load, i) => {
    const one = single.loads[i]!;
    rows.push(
      `| ${load.rate} msg/s p50 / p99 ms | ${round(one.latencyMs.p50)} / ${round(one.latencyMs.p99)} | ` +
        `${round(load.latencyMs.p50)} / ${round(load.latencyMs.p99)} | ` +
        `${times(load.latencyMs.p99 / Math.max(0.1, one.latencyMs.p99))} (p99) |`,
      `| ${load.rate} msg/s CPU-s per million deliveries (all nodes) | ${round(one.cpuSecondsPerMillion)} | ` +
        `${round(load.cpuSecondsPerMillion)} | **${times(load.cpuSecondsPerMillion / one.cpuSecondsPerMillion)}** |`,
      `| ${load.rate} msg/s missing | ${one.missing} | ${load.missing} | |`,
    );
  });
  const connect =
    run.connectCpuMs === undefined ? '' : times(run.connectCpuMs / Math.max(1, single.connectCpuMs ?? 0));
  rows.push(
    `| connect CPU for the room (all nodes) | ${connectOf(single)} | ${connectOf(run)} | ${connect} |`,
  );
  return rows;
}

function perMessageRow(run: TopologyRun, load: RateRun): string {
  const redis = load.redis;
  const redisCells = redis
    ? `${round(perMessage(redis.commands, load), 2)} (${round(perMessage(redis.calls.publish ?? 0, load), 2)}) | ` +
      `${round(perMessage(redis.bytesIn + redis.bytesOut, load), 0)}`
    : 'no Redis | no Redis';
  const pg = load.postgres;
  const kind = run.perNode ? ', hot' : run.affinity ? ', affinity' : '';
  return (
    `| ${load.rate} msg/s, ${run.nodes} node${run.nodes > 1 ? 's' : ''}${kind} | ${run.members} | ${redisCells} | ` +
    `${round(perMessage(pg.transactions, load), 2)} | ${round(perMessage(pg.inserted, load), 2)} / ${round(perMessage(pg.updated, load), 2)} |`
  );
}

type Topology = 'cluster' | 'affinity' | 'hot' | 'small' | 'affinitySmall';
const TOPOLOGIES: Array<[Topology, string]> = [
  ['cluster', 'spread (i mod n)'],
  ['affinity', 'affinity'],
  ['hot', 'hot room'],
];
/** The runs on Redis, small rooms too: what each sends over Redis per message. */
const ON_REDIS: Array<[Topology, string]> = [
  ['cluster', 'spread (i mod n)'],
  ['small', 'spread, small room'],
  ['affinity', 'affinity'],
  ['affinitySmall', 'affinity, small room'],
  ['hot', 'hot room'],
];

const rangeOf = (values: number[], unit = times) => {
  const { median, min, max } = medianRange(values);
  return `**${unit(median)}** (${round(min, 2)}–${round(max, 2)})`;
};

const loadOf = (run: TopologyRun | undefined, rate: number) => run?.loads.find((load) => load.rate === rate);
const cpu = (run: TopologyRun | undefined, rate: number) => loadOf(run, rate)?.cpuSecondsPerMillion;
const publishes = (run: TopologyRun | undefined, rate: number) => {
  const load = loadOf(run, rate);
  return load?.redis && perMessage(load.redis.calls.publish ?? 0, load);
};

/** A row per layout and rate: `value` of each build's rounds, as the median and the range. */
function overRounds(
  runs: BuildRound[],
  builds: string[],
  rates: number[],
  layouts: Array<[Topology, string]>,
  value: (run: BuildRound, topology: Topology, rate: number) => number | undefined,
  unit?: (value: number) => string,
): string[] {
  return layouts.flatMap(([topology, name]) =>
    rates.flatMap((rate) => {
      const cells = builds.map((build) => {
        const values = runs
          .filter((run) => run.build === build)
          .flatMap((run) => {
            const each = value(run, topology, rate);
            return each === undefined ? [] : [each];
          });
        return values.length > 0 ? rangeOf(values, unit) : undefined;
      });
      return cells.some((cell) => cell !== undefined)
        ? [`| ${rate} msg/s, ${name} | ${cells.map((cell) => cell ?? '—').join(' | ')} |`]
        : [];
    }),
  );
}

/**
 * Over the rounds: each cluster's CPU per delivery over the same round's one node, and its Redis PUBLISH
 * per message, per build; and with another build, this build's CPU per delivery over that build's in the
 * same round, per topology.
 */
export function printInterleaved(runs: BuildRound[]): void {
  const builds = [...new Set(runs.map((run) => run.build))];
  const rounds = new Set(runs.map((run) => run.round)).size;
  if (rounds < 2 && builds.length < 2) return;
  const rates = runs[0]!.single.loads.map((load) => load.rate);
  const loads = runs.map(
    (run) => `${run.build} ${run.round + 1}: ${round(run.single.loadAverage[0] ?? 0, 2)}`,
  );
  const lines = [
    '',
    `Interleaved: ${rounds} round(s) of ${builds.join(' and ')}; the median of the rounds' values (lowest–highest)`,
    `1-minute load average as each round began: ${loads.join(', ')}`,
    `| CPU per delivery | ${builds.map((build) => `${build}: cluster / one node`).join(' | ')} |`,
    `| --- | ${builds.map(() => '---').join(' | ')} |`,
    ...overRounds(runs, builds, rates, TOPOLOGIES, (run, topology, rate) => {
      const mine = cpu(run[topology], rate);
      return mine === undefined ? undefined : mine / cpu(run.single, rate)!;
    }),
    '',
    `| Redis PUBLISH per message | ${builds.join(' | ')} |`,
    `| --- | ${builds.map(() => '---').join(' | ')} |`,
    ...overRounds(
      runs,
      builds,
      rates,
      ON_REDIS,
      (run, topology, rate) => publishes(run[topology], rate),
      (value) => String(round(value, 2)),
    ),
  ];
  if (builds.includes('before')) {
    lines.push('', '| CPU per delivery, this build / before, same round | ratio |', '| --- | --- |');
    for (const [topology, name] of [['single', 'one node'], ...TOPOLOGIES] as Array<
      [Topology | 'single', string]
    >) {
      for (const rate of rates) {
        const ratios = [...Array(rounds).keys()].flatMap((r) => {
          const mine = cpu(runs.find((run) => run.build === 'this' && run.round === r)?.[topology], rate);
          const theirs = cpu(runs.find((run) => run.build === 'before' && run.round === r)?.[topology], rate);
          return mine !== undefined && theirs !== undefined ? [mine / theirs] : [];
        });
        if (ratios.length > 0) lines.push(`| ${rate} msg/s, ${name} | ${rangeOf(ratios)} |`);
      }
    }
  }
  console.log(lines.join('\n'));
}

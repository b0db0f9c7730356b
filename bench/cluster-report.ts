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
  const lines = [
    '',
    `Cluster: one ${cluster.members}-member room over ${cluster.nodes} nodes (PostgreSQL + Redis) against one node (same PostgreSQL)`,
    `load average ${[...single.loadAverage, ...cluster.loadAverage].join(', ')}`,
    ...against(single, cluster, `cluster, members on node i mod ${cluster.nodes}`),
  ];
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
  for (const run of [single, cluster, small, affinity, affinitySmall, hot].filter(
    (each) => each !== undefined,
  )) {
    for (const load of run.loads) lines.push(perMessageRow(run, load));
  }
  const calls = cluster.loads.at(-1)?.redis?.calls ?? {};
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

const rangeOf = (values: number[]) => {
  const { median, min, max } = medianRange(values);
  return `**${times(median)}** (${round(min, 2)}–${round(max, 2)})`;
};

/**
 * Over the rounds: each cluster's CPU per delivery over the same round's one node, per build; and with
 * another build, this build's CPU per delivery over that build's in the same round, per topology.
 */
export function printInterleaved(runs: BuildRound[]): void {
  const builds = [...new Set(runs.map((run) => run.build))];
  const rounds = new Set(runs.map((run) => run.round)).size;
  if (rounds < 2 && builds.length < 2) return;
  const rates = runs[0]!.single.loads.map((load) => load.rate);
  const cpu = (run: TopologyRun | undefined, rate: number) =>
    run?.loads.find((load) => load.rate === rate)?.cpuSecondsPerMillion;
  const lines = [
    '',
    `Interleaved: ${rounds} round(s) of ${builds.join(' and ')}; the median of the rounds' ratios (lowest–highest)`,
    `| CPU per delivery | ${builds.map((build) => `${build}: cluster / one node`).join(' | ')} |`,
    `| --- | ${builds.map(() => '---').join(' | ')} |`,
  ];
  for (const [topology, name] of TOPOLOGIES) {
    for (const rate of rates) {
      const cells = builds.map((build) => {
        const ratios = runs
          .filter((run) => run.build === build && run[topology])
          .map((run) => cpu(run[topology], rate)! / cpu(run.single, rate)!);
        return ratios.length > 0 ? rangeOf(ratios) : '—';
      });
      lines.push(`| ${rate} msg/s, ${name} | ${cells.join(' | ')} |`);
    }
  }
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

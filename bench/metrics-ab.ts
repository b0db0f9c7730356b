import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fanoutSettings } from './fanout.js';
import { envNumber } from './lib/env.js';
import { median, round } from './lib/stats.js';
import { runFanout, type FanoutSummary } from './peers/fanout-run.js';

/*
 * What the metrics cost on the hot path: the fan-out run of XTalk alone, with METRICS_ENABLED on and off,
 * interleaved (the order alternates every round), `BENCH_METRICS_AB_ROUNDS` pairs. Each figure is the
 * median of its side's runs with its swing, and the ratio on / off. Alone, after
 * `npm run build -w @xtalk/server`: `node --import tsx bench/metrics-ab.ts`.
 */

type Side = 'on' | 'off';
const SIDES: Side[] = ['on', 'off'];

interface Figure {
  label: string;
  read: (summary: FanoutSummary) => number;
}

function figuresOf(rates: number[]): Figure[] {
  return [
    { label: 'server CPU-s per million deliveries', read: (s) => s.cpuSecondsPerMillion },
    { label: 'of which the main thread', read: (s) => s.mainThreadCpuSecondsPerMillion },
    ...rates.flatMap((rate) => [
      {
        label: `${rate} msg/s p50 (ms)`,
        read: (s: FanoutSummary) => s.rates.find((r) => r.rate === rate)!.p50,
      },
      {
        label: `${rate} msg/s p99 (ms)`,
        read: (s: FanoutSummary) => s.rates.find((r) => r.rate === rate)!.p99,
      },
    ]),
    { label: 'server CPU-s to connect 2,000 sockets', read: (s) => s.connectCpuSecondsPer2000 },
  ];
}

/** The median of `values` and its swing (max - min over the median). */
function middle(values: number[]) {
  const mid = median(values);
  return { median: mid, swing: mid === 0 ? 0 : (Math.max(...values) - Math.min(...values)) / mid };
}

async function main() {
  const log = (line: string) => console.log(`[metrics-ab ${new Date().toISOString().slice(11, 19)}] ${line}`);
  const rounds = envNumber('BENCH_METRICS_AB_ROUNDS', 3);
  const base = { ...fanoutSettings(log), kinds: ['xtalk'] as const, rounds: 1 };
  const runs: Record<Side, FanoutSummary[]> = { on: [], off: [] };
  const loads: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 === 0 ? SIDES : [...SIDES].reverse()) {
      log(`round ${r + 1}/${rounds}: metrics ${side}`);
      loads.push(loadavg()[0] ?? 0);
      const result = await runFanout({ ...base, xtalkEnv: { METRICS_ENABLED: side } });
      runs[side].push(result.medians[0]!);
    }
  }
  const table = figuresOf(base.rates).map(({ label, read }) => {
    const on = middle(runs.on.map(read));
    const off = middle(runs.off.map(read));
    return { label, on, off, onOverOff: off.median === 0 ? NaN : on.median / off.median };
  });
  const pct = (value: number) => `${Math.round(value * 100)} %`;
  console.log(`\nMetrics on against off, ${rounds} interleaved pairs (median, swing):`);
  console.log('| measure | metrics on | metrics off | on / off |\n| --- | --- | --- | --- |');
  for (const row of table) {
    const cell = (side: { median: number; swing: number }) => `${round(side.median, 2)} (${pct(side.swing)})`;
    console.log(`| ${row.label} | ${cell(row.on)} | ${cell(row.off)} | ${round(row.onOverOff, 2)} |`);
  }
  console.log(`1-minute load average at each run's start: ${loads.map((l) => round(l, 1)).join(', ')}`);
  const here = dirname(fileURLToPath(import.meta.url));
  const out = process.env.BENCH_METRICS_AB_OUT ?? join(here, 'results', 'metrics-ab.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ rounds, loads, runs, table }, null, 2)}\n`);
}

const hardTimeout = setTimeout(() => process.exit(2), envNumber('BENCH_TIMEOUT_SECONDS', 1800) * 1000);
hardTimeout.unref();
main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('metrics A/B failed:', error);
    process.exit(1);
  },
);

import type { FanoutResult, FanoutSummary } from './fanout-run.js';

/*
 * The comparison table: XTalk, bare `ws` and Socket.IO side by side (medians over the rounds),
 * the ratios XTalk / peer, and each target with whether this run met it.
 */

interface Row {
  label: string;
  value: (summary: FanoutSummary) => number;
  show: (summary: FanoutSummary) => string;
  /** No XTalk / peer ratio: the row is a count, or a ratio of its own. */
  noRatio?: boolean;
  /** Targets as XTalk ≤ factor × peer (+ slack, same unit); absent when the row has no target. */
  targets?: { ws?: number; socketio?: number; wsPlus?: number; absolute?: number };
}

const at = (summary: FanoutSummary, rate: number) => summary.rates.find((entry) => entry.rate === rate);

function rows(rates: number[]): Row[] {
  const top = Math.max(...rates);
  const latency: Row[] = rates.flatMap((rate) => [
    {
      label: `${rate} msg/s p50 / p99 (ms)`,
      value: (s: FanoutSummary) => at(s, rate)?.p99 ?? NaN,
      show: (s: FanoutSummary) => `${at(s, rate)?.p50} / ${at(s, rate)?.p99}`,
      ...(rate === top ? { targets: { ws: 1.2, socketio: 0.6 } } : {}),
    },
    {
      label: `${rate} msg/s deliveries/s (missing)`,
      value: (s: FanoutSummary) => at(s, rate)?.missing ?? NaN,
      show: (s: FanoutSummary) => `${at(s, rate)?.deliveriesPerSecond} (${at(s, rate)?.missing})`,
      noRatio: true,
    },
  ]);
  return [
    ...latency,
    {
      label: 'server CPU-s per million deliveries',
      value: (s) => s.cpuSecondsPerMillion,
      show: (s) => `${s.cpuSecondsPerMillion}`,
      targets: { ws: 1.1, socketio: 0.85 },
    },
    {
      // where the CPU above goes: XTalk's other threads are its database thread, GC helpers and libuv
      label: '  of which the main thread',
      value: (s) => s.mainThreadCpuSecondsPerMillion,
      show: (s) => `${s.mainThreadCpuSecondsPerMillion}`,
    },
    {
      label: 'idle memory per connection after GC (KiB, RSS; heap+external)',
      value: (s) => s.idleKiBPerConnection,
      show: (s) => `${s.idleKiBPerConnection}; ${s.idleHeapKiBPerConnection}`,
      targets: { wsPlus: 3 },
    },
    {
      label: 'server RSS at start (MiB)',
      value: (s) => s.rssAtStartMiB,
      show: (s) => `${s.rssAtStartMiB}`,
      targets: { absolute: 150 },
    },
    {
      label: 'server CPU to connect 2,000 sockets (s)',
      value: (s) => s.connectCpuSecondsPer2000,
      show: (s) => `${s.connectCpuSecondsPer2000}`,
      targets: { ws: 2 },
    },
    {
      label: '  of which the main thread',
      value: (s) => s.connectMainThreadCpuSecondsPer2000,
      show: (s) => `${s.connectMainThreadCpuSecondsPer2000}`,
    },
    {
      // each quarter's server CPU until quiet; every server's room is filled the same way
      label: 'room fill: connect CPU of last / first quarter (1 = linear)',
      value: (s) => s.fillLastOverFirst,
      show: (s) => `${s.fillLastOverFirst}`,
      noRatio: true,
      targets: { absolute: 1.5 },
    },
  ];
}

const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a');

function verdict(row: Row, xtalk: FanoutSummary, ws: FanoutSummary, sio: FanoutSummary): string {
  const t = row.targets;
  if (!t) return '';
  const x = row.value(xtalk);
  const checks: string[] = [];
  if (t.ws !== undefined) checks.push(`${x <= t.ws * row.value(ws) ? 'met' : 'NOT met'} (<= ${t.ws}x ws)`);
  if (t.socketio !== undefined)
    checks.push(`${x <= t.socketio * row.value(sio) ? 'met' : 'NOT met'} (<= ${t.socketio}x Socket.IO)`);
  if (t.wsPlus !== undefined)
    checks.push(`${x <= row.value(ws) + t.wsPlus ? 'met' : 'NOT met'} (<= ws + ${t.wsPlus} KiB)`);
  if (t.absolute !== undefined) checks.push(`${x <= t.absolute ? 'met' : 'NOT met'} (<= ${t.absolute})`);
  return checks.join(', ');
}

export function fanoutTable(result: FanoutResult): string {
  if (result.medians.length < 3) return JSON.stringify(result.medians, null, 2);
  const find = (kind: string) => result.medians.find((summary) => summary.kind === kind)!;
  const [xtalk, ws, sio] = [find('xtalk'), find('ws'), find('socketio')];
  const header = ['', 'XTalk', 'bare ws', 'Socket.IO', 'XTalk/ws', 'XTalk/Socket.IO', 'target'];
  const body = rows(result.settings.rates).map((row) => [
    row.label,
    row.show(xtalk),
    row.show(ws),
    row.show(sio),
    row.noRatio ? '' : ratio(row.value(xtalk), row.value(ws)),
    row.noRatio ? '' : ratio(row.value(xtalk), row.value(sio)),
    verdict(row, xtalk, ws, sio),
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((line) => (line[i] ?? '').length)));
  const format = (line: string[]) => `| ${line.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  const s = result.settings;
  return [
    `\nFan-out vs peers: one ${s.roomSize}-member room, ${s.sockets} sockets, medians of ${s.rounds} interleaved rounds`,
    format(header),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...body.map(format),
  ].join('\n');
}

export function printFanoutReport(result: FanoutResult): void {
  console.log(fanoutTable(result));
  const loads = result.runs.map((run) => run.loadAverage.join('→')).join(', ');
  console.log(`  load average (1 min) during the runs: ${loads}`);
}

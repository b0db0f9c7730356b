import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { envNumber } from './lib/env.js';
import { startScriptEnvironment, startServerProcess } from './lib/server-process.js';
import { median } from './lib/stats.js';

/*
 * The server's RSS at start, as the fan-out bench reads it (bench/peers/fanout-run.ts runOne):
 * the built apps/server/dist/server.js with a fresh DATA_DIR, `LANGUAGES=en`, node flags `--expose-gc
 * --import bench/peers/gc-hook.mjs`, the environment `npm start` sets (BENCH_START_ENV=0 leaves it out);
 * VmRSS 2 s after /api/health answers. Medians over RSS_RUNS starts,
 * with where the memory is: /proc/<pid>/smaps grouped by kind of mapping.
 *
 *   npm run build -w @xtalk/server && node --import tsx bench/rss-at-start.ts
 *
 * RSS_RUNS (5), RSS_WAIT_MS (2000), RSS_NODE_ARGS (more node flags, space-separated) and RSS_ENV
 * (`NAME=value NAME=value` for the server) try a setting without rebuilding; RSS_ENTRY measures another
 * build of the server (as BENCH_XTALK_ENTRY does for the fan-out bench).
 */

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const runs = envNumber('RSS_RUNS', 5);
const waitMs = envNumber('RSS_WAIT_MS', 2000, (value) => value >= 0);
const extraNodeArgs = (process.env.RSS_NODE_ARGS ?? '').split(' ').filter(Boolean);
const extraEnv = Object.fromEntries(
  (process.env.RSS_ENV ?? '')
    .split(' ')
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);

interface Mapping {
  start: bigint;
  end: bigint;
  perms: string;
  path: string;
  rssKiB: number;
}

function mappings(pid: number): Mapping[] {
  const list: Mapping[] = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      list.push({
        start: BigInt(`0x${header[1]}`),
        end: BigInt(`0x${header[2]}`),
        perms: header[3]!,
        path: header[4]!.trim(),
        rssKiB: 0,
      });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && list.length > 0) list[list.length - 1]!.rssKiB = Number(rss[1]);
  }
  return list;
}

const GiB = 1n << 30n;
const ARENA = 64n << 20n; // glibc's per-thread malloc heaps: 64 MiB reservations, 64 MiB aligned

/** Which kind of memory a mapping is; anonymous ones by their shape (V8 and glibc do not name them). */
function kindOf(mapping: Mapping, previous: Mapping | undefined, next: Mapping | undefined): string {
  const { path, perms } = mapping;
  if (path === '[heap]') return 'malloc (brk heap)';
  if (path.startsWith('[stack')) return 'stacks';
  if (path.startsWith('[')) return 'other';
  if (path.endsWith('/node') || path.endsWith('/nodejs')) return 'node binary';
  if (/\.so(\.|$)/.test(path)) return 'shared libraries';
  if (path.startsWith('/')) return `file ${path.slice(path.lastIndexOf('/') + 1)}`;
  if (perms.startsWith('---')) return 'reserved';
  // a WebAssembly memory: its accessible part between the guard regions V8 reserves (GiBs, no access)
  const guarded = (other: Mapping | undefined) =>
    other?.perms.startsWith('---') && other.end - other.start >= GiB;
  if (guarded(previous) && guarded(next)) return 'wasm memory (PGlite)';
  if (perms.includes('x')) return 'code (JIT, wasm)';
  // an arena's used part (rw) followed by the rest of its 64 MiB reservation (---p)
  const arenaStart = mapping.start % ARENA === 0n;
  const arenaEnd = next?.perms.startsWith('---') && next.end - mapping.start === ARENA;
  if (arenaStart && (arenaEnd || mapping.end - mapping.start === ARENA)) return 'malloc (thread arenas)';
  return 'anonymous (V8 heaps, buffers)';
}

function breakdown(pid: number): Map<string, number> {
  const byKind = new Map<string, number>();
  const list = mappings(pid);
  list.forEach((mapping, index) => {
    if (mapping.rssKiB === 0) return;
    const kind = kindOf(mapping, list[index - 1], list[index + 1]);
    byKind.set(kind, (byKind.get(kind) ?? 0) + mapping.rssKiB);
  });
  return byKind;
}

function statusKiB(pid: number, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (kib: number) => (kib / 1024).toFixed(1).padStart(7);

const samples: Array<Map<string, number>> = [];
console.log(
  `rss-at-start: ${runs} starts, ${waitMs} ms after health, load ${loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')}` +
    (extraNodeArgs.length ? `, node ${extraNodeArgs.join(' ')}` : '') +
    `, npm start's env ${JSON.stringify(startScriptEnvironment())}` +
    (Object.keys(extraEnv).length ? `, env ${process.env.RSS_ENV}` : ''),
);
for (let run = 0; run < runs; run++) {
  const started = Date.now();
  const server = await startServerProcess({
    entry: process.env.RSS_ENTRY ?? join(root, 'apps/server/dist/server.js'),
    nodeArgs: ['--expose-gc', '--import', join(here, 'peers/gc-hook.mjs'), ...extraNodeArgs],
    env: { LANGUAGES: 'en', ...extraEnv },
    startTimeoutMs: 60_000,
  });
  const healthyMs = Date.now() - started;
  try {
    await sleep(waitMs);
    const sample = new Map<string, number>([
      ['VmRSS', statusKiB(server.pid, 'VmRSS')],
      ['RssAnon', statusKiB(server.pid, 'RssAnon')],
      ['RssFile', statusKiB(server.pid, 'RssFile')],
      ['VmHWM', statusKiB(server.pid, 'VmHWM')],
      ['Threads', statusKiB(server.pid, 'Threads') * 1024],
    ]);
    for (const [kind, kiB] of breakdown(server.pid)) sample.set(`  ${kind}`, kiB);
    // the main thread's heap after two full GCs (only now: collecting would change what was read above)
    const usage = await server.memoryAfterGc();
    sample.set('main heapUsed after GC', usage.heapUsed / 1024);
    sample.set('main external after GC', usage.external / 1024);
    sample.set('VmRSS after main GC', statusKiB(server.pid, 'VmRSS'));
    samples.push(sample);
    console.log(`  start ${run + 1}: healthy in ${healthyMs} ms, VmRSS ${mib(sample.get('VmRSS')!)} MiB`);
  } finally {
    await server.stop();
  }
}

const keys = [...new Set(samples.flatMap((sample) => [...sample.keys()]))];
console.log(`medians (MiB) over ${samples.length} starts, load now ${loadavg()[0]?.toFixed(2)}:`);
for (const key of keys) {
  const values = samples.map((sample) => sample.get(key) ?? 0);
  if (key === 'Threads') {
    console.log(`${key.padEnd(38)} ${String(median(values) / 1024).padStart(7)}`);
    continue;
  }
  console.log(
    `${key.padEnd(38)} ${mib(median(values))}   (${values.map((v) => (v / 1024).toFixed(0)).join(' ')})`,
  );
}

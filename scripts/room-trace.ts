import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SourceMapConsumer } from 'source-map-js';
import { launchBrowser } from '../e2e/lib/browser.js';
import { enterAsGuest } from '../e2e/lib/people.js';
import { ProductServer } from '../e2e/lib/product-server.js';

/*
 * `npm run trace:room` (after `npm run build`): where the room screen's load spends the main thread, the
 * way Lighthouse's TBT sees it. Chromium at a real 4x CPU slowdown loads the room screen of a guest who
 * has entered before; every top-level task over 50 ms is listed with the functions its CPU samples fall
 * in, mapped through the build's source maps to source files. TRACE_RUNS=n (default 1) repeats the load.
 * TRACE_CPU_RATE=1 loads it unslowed, as Lighthouse's simulation observes it, and then the tasks after the
 * first contentful paint by CPU time x 4 are the estimate of its TBT that the machine's load moves least;
 * TRACE_STACKS=1 adds the time under each caller. Last, the CPU of every Chromium thread after the first paint: what
 * competed with the page for the machine's two cores (decision 0086). Decisions 0084 and 0085 say how this was used.
 */

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the event: what the task cost, whatever else the machine was doing. */
  tdur?: number;
  tid: number;
  pid: number;
  cat: string;
}
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const assets = join(import.meta.dirname, '../apps/web/dist/assets');
const consumers = new Map<string, SourceMapConsumer | null>();
function original(url: string, line: number, column: number): string {
  const file = url.split('/assets/')[1];
  if (!file) return url ? url.replace(/^https?:\/\/[^/]+/, '') : '(native)';
  if (!consumers.has(file)) {
    try {
      consumers.set(
        file,
        new SourceMapConsumer(JSON.parse(readFileSync(join(assets, `${file}.map`), 'utf8'))),
      );
    } catch {
      consumers.set(file, null);
    }
  }
  const consumer = consumers.get(file);
  const position = consumer?.originalPositionFor({ line: line + 1, column });
  if (!position?.source) return file;
  const source = position.source.replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, '');
  return `${source}:${position.line}${position.name ? ` ${position.name}` : ''}`;
}

const runs = Math.max(1, Number(process.env.TRACE_RUNS ?? 1));
// TRACE_CPU_RATE=1: no slowdown, as Lighthouse's simulated run observes the page (it multiplies by 4 after)
const rate = Math.max(1, Number(process.env.TRACE_CPU_RATE ?? 4));
const scale = rate === 1 ? 4 : 1;
const server = await ProductServer.start();
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  const entry = await context.newPage();
  await enterAsGuest(entry, `${server.url}/`);
  const room = entry.url();
  await entry.close();
  for (let run = 0; run < runs; run++) {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', ({ value }) => {
      events.push(...(value as unknown as TraceEvent[]));
    });
    await cdp.send('Tracing.start', {
      categories:
        'disabled-by-default-devtools.timeline,devtools.timeline,toplevel,loading,blink.user_timing,__metadata',
      transferMode: 'ReportEvents',
    });
    await cdp.send('Profiler.start');
    await page.goto(room);
    // no Playwright query while tracing: its injected script's work would show as the page's
    await page.waitForTimeout(5000);
    // where the load ends: stopping the profiler is itself a long task of the page's main thread
    await page.evaluate(() => performance.mark('room-trace-end'));
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.end');
    await done;

    // the renderer's main thread: where the document's parse ran
    const main =
      events.find((event) => event.name === 'ParseHTML') ?? events.find((e) => e.name === 'RunTask');
    const tasks = events
      .filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === main?.pid && e.tid === main?.tid)
      .filter((e) => (e.dur ?? 0) * scale >= 50_000)
      .sort((a, b) => a.ts - b.ts);
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const parents = new Map<number, number>();
    for (const node of profile.nodes as (ProfileNode & { children?: number[] })[])
      for (const child of node.children ?? []) parents.set(child, node.id);
    const sampleTimes: number[] = [];
    let clock = profile.startTime;
    for (const delta of profile.timeDeltas) sampleTimes.push((clock += delta));

    // what a task spent its time in, by trace event (script, style, layout, paint...), CPU time at 1x
    const eventsIn = (task: TraceEvent) =>
      events
        .filter(
          (e) =>
            e.ph === 'X' &&
            e.tid === task.tid &&
            e.ts >= task.ts &&
            e.ts < task.ts + task.dur! &&
            e.name !== 'RunTask',
        )
        .filter((e) => ((scale === 4 ? e.tdur : e.dur) ?? 0) > 5_000 / scale)
        .map((e) => `${e.name} ${Math.round((scale === 4 ? e.tdur! : e.dur!) / 1000)}`)
        .slice(0, 6);

    let blocking = 0;
    console.log(`\nrun ${run + 1}: tasks over 50 ms at 4x${scale === 4 ? ' (observed at 1x, times 4)' : ''}`);
    for (const task of tasks) {
      const end = task.ts + task.dur!;
      blocking += (task.dur! * scale) / 1000 - 50;
      const self = new Map<string, number>();
      for (let i = 0; i < profile.samples.length; i++) {
        const at = sampleTimes[i]!;
        if (at < task.ts || at > end) continue;
        const frame = nodes.get(profile.samples[i]!)!.callFrame;
        const key = frame.url
          ? original(frame.url, frame.lineNumber, frame.columnNumber)
          : `(${frame.functionName || 'native'})`;
        self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
      }
      // TRACE_STACKS=1: also the time each function was on the stack (callers included), to see which
      // caller (a sync render, a flush of effects, a timer) a task's work runs under
      const total = new Map<string, number>();
      if (process.env.TRACE_STACKS)
        for (let i = 0; i < profile.samples.length; i++) {
          const at = sampleTimes[i]!;
          if (at < task.ts || at > end) continue;
          const seen = new Set<string>();
          for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parents.get(id)) {
            const frame = nodes.get(id)!.callFrame;
            if (!frame.url) continue;
            seen.add(original(frame.url, frame.lineNumber, frame.columnNumber));
          }
          for (const key of seen) total.set(key, (total.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
        }
      const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
      const inside = eventsIn(task);
      console.log(
        `- at ${Math.round((task.ts - tasks[0]!.ts) / 1000)} ms: ${Math.round((task.dur! * scale) / 1000)} ms`,
      );
      console.log(`    events: ${inside.join(', ')}`);
      for (const [where, ms] of top) console.log(`    ${ms.toFixed(1).padStart(6)} ms  ${where}`);
      const stacks = [...total.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
      for (const [where, ms] of stacks) console.log(`    ${ms.toFixed(1).padStart(6)} ms  under ${where}`);
    }
    console.log(`blocking time (sum of each task's time over 50 ms): ${Math.round(blocking)} ms`);

    // The tasks by CPU time (thread time): on a shared machine the wall time above grows with everyone
    // else's work, a task's CPU time much less. With TRACE_CPU_RATE=1, times 4 is what Lighthouse's
    // simulated 4x slowdown makes of the task (it too observes the page unslowed); only tasks after the
    // first contentful paint count in its TBT. (At a real slowdown the thread time is inflated too.)
    const traceEnd = events.find((e) => e.name === 'room-trace-end')?.ts ?? Infinity;
    const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === main?.pid)?.ts;
    if (fcp === undefined) {
      console.log('no first contentful paint in this trace: no estimate');
      await page.close();
      continue;
    }
    const all = events.filter(
      (e) =>
        e.name === 'RunTask' &&
        e.ph === 'X' &&
        e.pid === main?.pid &&
        e.tid === main?.tid &&
        e.ts > fcp &&
        e.ts < traceEnd,
    );
    const cpuTotal = all.reduce((sum, e) => sum + (e.tdur ?? 0), 0) / 1000;
    console.log(`after first contentful paint: ${Math.round(cpuTotal)} ms of CPU in ${all.length} tasks`);
    const cpu = events
      .filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === main?.pid && e.tid === main?.tid)
      .filter((e) => e.ts + e.dur! > fcp && e.ts < traceEnd && (e.tdur ?? 0) * 4 > 50_000)
      .sort((a, b) => a.ts - b.ts);
    let estimate = 0;
    console.log(`after first contentful paint, tasks over 50 ms as 4 x CPU time:`);
    for (const task of cpu) {
      estimate += (task.tdur! * 4) / 1000 - 50;
      console.log(
        `  at ${Math.round((task.ts - fcp) / 1000)} ms after FCP: ${Math.round((task.tdur! * 4) / 1000)} ms` +
          ` (CPU ${Math.round(task.tdur! / 1000)} ms, wall ${Math.round(task.dur! / 1000)} ms at ${rate}x)`,
      );
      console.log(`      ${eventsIn(task).join(', ')}`);
    }
    console.log(`blocking time from 4 x CPU time, after FCP: ${Math.round(estimate)} ms`);
    // Every Chromium process's threads by CPU from the first paint to the end: on two cores, what else runs
    // beside the page stretches its tasks' wall time, which is what Lighthouse multiplies (decision 0086)
    const names = new Map<string, string>();
    const processes = new Map<number, string>();
    for (const e of events as (TraceEvent & { args?: { name?: string } })[]) {
      if (e.ph !== 'M' || !e.args?.name) continue;
      if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
      if (e.name === 'process_name') processes.set(e.pid, e.args.name);
    }
    const threads = new Map<string, { cpu: number; wall: number }>();
    for (const e of events) {
      if (e.ph !== 'X' || e.name !== 'ThreadControllerImpl::RunTask' || e.ts < fcp || e.ts > traceEnd)
        continue;
      const key = `${processes.get(e.pid) ?? e.pid} / ${names.get(`${e.pid}:${e.tid}`) ?? e.tid}`;
      const sum = threads.get(key) ?? { cpu: 0, wall: 0 };
      sum.cpu += (e.tdur ?? 0) / 1000;
      sum.wall += (e.dur ?? 0) / 1000;
      threads.set(key, sum);
    }
    console.log('CPU by thread from the first paint on (all Chromium processes):');
    for (const [key, { cpu, wall }] of [...threads].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 6))
      console.log(`  ${key}: CPU ${Math.round(cpu)} ms (wall ${Math.round(wall)} ms)`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.dispose();
}

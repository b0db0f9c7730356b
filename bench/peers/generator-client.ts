import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { round } from '../lib/stats.js';
import type { GeneratorReply, GeneratorRequest, LoadResult } from './generator-protocol.js';

/*
 * The load generator (load-generator.ts, a process of its own) seen from the run that drives it: started,
 * asked, and its open sockets loaded at each rate in turn while the server's counters are read. The
 * fan-out comparison and the cluster run both load this way.
 */

const here = dirname(fileURLToPath(import.meta.url));

export function startGenerator() {
  const child: ChildProcess = fork(join(here, 'load-generator.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const listeners = new Set<(reply: GeneratorReply) => void>();
  child.on('message', (reply: GeneratorReply) => {
    for (const listener of listeners) listener(reply);
  });
  function ask<C extends GeneratorReply['cmd']>(
    request: GeneratorRequest,
    answer: C,
    onReply?: (reply: GeneratorReply) => void,
  ): Promise<Extract<GeneratorReply, { cmd: C }>> {
    return new Promise((resolve, reject) => {
      const listener = (reply: GeneratorReply) => {
        onReply?.(reply);
        if (reply.cmd === 'failed') reject(new Error(`load generator: ${reply.error}`));
        else if (reply.cmd === answer) resolve(reply as Extract<GeneratorReply, { cmd: C }>);
        else return;
        listeners.delete(listener);
      };
      listeners.add(listener);
      child.send(request);
    });
  }
  return { ask, stop: () => child.kill() };
}

export type LoadGenerator = ReturnType<typeof startGenerator>;

export interface RatePhases {
  rates: number[];
  seconds: number;
  warmupSeconds: number;
  senders: number;
}

/** The server's counters a load reads over its measured part: its CPU, and the main thread's where it has one. */
export type CpuCounters<K extends string> = Record<'serverCpuMs' | K, () => number>;

/** One load's result from the generator, with each counter's growth over the measured part. */
export type RateLoad<K extends string> = LoadResult & { rate: number } & Record<'serverCpuMs' | K, number> & {
    cpuSecondsPerMillion: number;
  };

interface Loaded<L> {
  loads: L[];
  /** As the generator counted them after the last load; undefined when there was none. */
  unexpectedCloses: number | undefined;
  /** The 1-minute load average after each load. */
  loadAverage: number[];
}

/**
 * Loads the generator's open sockets at each rate in turn: a warm-up, the measured part, the drain. `around`
 * wraps each load, for what a run reads before and after it.
 */
export function loadAtEachRate<K extends string>(
  generator: LoadGenerator,
  counters: CpuCounters<K>,
  phases: RatePhases,
): Promise<Loaded<RateLoad<K>>>;
export function loadAtEachRate<K extends string, L>(
  generator: LoadGenerator,
  counters: CpuCounters<K>,
  phases: RatePhases,
  around: (rate: number, load: () => Promise<RateLoad<K>>) => Promise<L>,
): Promise<Loaded<L>>;
export async function loadAtEachRate<K extends string, L>(
  generator: LoadGenerator,
  counters: CpuCounters<K>,
  phases: RatePhases,
  around?: (rate: number, load: () => Promise<RateLoad<K>>) => Promise<L>,
): Promise<Loaded<L | RateLoad<K>>> {
  const loaded: Loaded<L | RateLoad<K>> = { loads: [], unexpectedCloses: undefined, loadAverage: [] };
  for (const rate of phases.rates) {
    const load = async () => {
      const { result, unexpectedCloses } = await loadAt(generator, counters, rate, phases);
      loaded.unexpectedCloses = unexpectedCloses;
      return result;
    };
    loaded.loads.push(around ? await around(rate, load) : await load());
    loaded.loadAverage.push(round(loadavg()[0] ?? 0, 2));
  }
  return loaded;
}

async function loadAt<K extends string>(
  generator: LoadGenerator,
  counters: CpuCounters<K>,
  rate: number,
  phases: RatePhases,
) {
  const names = Object.keys(counters) as Array<'serverCpuMs' | K>;
  const read = () => names.map((name) => counters[name]());
  let atMeasure = read();
  const loaded = await generator.ask(
    {
      cmd: 'load',
      rate,
      seconds: phases.seconds,
      warmupSeconds: phases.warmupSeconds,
      drainMs: 10_000,
      senders: phases.senders,
    },
    'loaded',
    (reply) => {
      if (reply.cmd === 'measuring') atMeasure = read();
    },
  );
  const after = read();
  const grown = Object.fromEntries(names.map((name, index) => [name, after[index]! - atMeasure[index]!]));
  const cpu = grown as Record<'serverCpuMs' | K, number>;
  const result = {
    ...loaded.result,
    rate,
    ...cpu,
    cpuSecondsPerMillion: (cpu.serverCpuMs / Math.max(1, loaded.result.deliveries)) * 1000,
  } as RateLoad<K>;
  return { result, unexpectedCloses: loaded.unexpectedCloses };
}

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printFloodReport, runFlood, type FloodOptions, type FloodResult } from './flood-run.js';
import { startServerProcess } from './lib/server-process.js';
import { envNumber } from './lib/env.js';

/*
 * The flood part of `npm run bench`, also runnable alone after `npm run build -w @xtalk/server`:
 * `node --import tsx bench/flood.ts`. Starts its own server process (one language: chat alone).
 */

export function floodSettings(): Omit<FloodOptions, 'log'> {
  return {
    rooms: envNumber('BENCH_FLOOD_ROOMS', 10),
    clientsPerRoom: envNumber('BENCH_FLOOD_CLIENTS_PER_ROOM', 5),
    rate: envNumber('BENCH_FLOOD_RATE', 0.5),
    phaseSeconds: envNumber('BENCH_FLOOD_SECONDS', 15),
    attackerSockets: envNumber('BENCH_FLOOD_SOCKETS', 100),
    junkPerSecond: envNumber('BENCH_FLOOD_JUNK_PER_SECOND', 2000),
    setupConcurrency: 8,
  };
}

export async function runFloodPart(
  entry: string,
  options: FloodOptions,
): Promise<{ result: FloodResult; logLines: string[]; exitCode: number | null }> {
  const server = await startServerProcess({ entry, env: { LANGUAGES: 'en' } });
  try {
    const result = await runFlood(server, options);
    return { result, logLines: server.logLines.map((line) => `[flood] ${line}`), exitCode: null };
  } finally {
    await server.stop();
  }
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const here = dirname(fileURLToPath(import.meta.url));
  const log = (line: string) => console.log(`[flood ${new Date().toISOString().slice(11, 19)}] ${line}`);
  const hardTimeout = setTimeout(() => process.exit(2), 240_000);
  hardTimeout.unref();
  runFloodPart(join(here, '..', 'apps/server/dist/server.js'), { ...floodSettings(), log }).then(
    ({ result }) => {
      printFloodReport(result);
      console.log(JSON.stringify(result));
      process.exit(0);
    },
    (error: unknown) => {
      console.error('flood run failed:', error);
      process.exit(1);
    },
  );
}

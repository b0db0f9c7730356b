import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { envNumber } from './lib/env.js';
import { printFanoutReport } from './peers/fanout-report.js';
import type { PeerKind } from './peers/generator-protocol.js';
import { PEER_KINDS, runFanout, type FanoutSettings } from './peers/fanout-run.js';

/*
 * The fan-out part of `npm run bench`, also runnable alone after `npm run build -w @xtalk/server`:
 * `node --import tsx bench/fanout.ts`. XTalk, bare `ws` and Socket.IO, interleaved, medians and ratios.
 */

export function fanoutSettings(log: (line: string) => void): FanoutSettings {
  return {
    rounds: envNumber('BENCH_FANOUT_ROUNDS', 3),
    sockets: envNumber('BENCH_FANOUT_SOCKETS', 1000),
    roomSize: envNumber('BENCH_FANOUT_ROOM_SIZE', 1000),
    rates: (process.env.BENCH_FANOUT_RATES ?? '20,50').split(',').map(Number),
    seconds: envNumber('BENCH_FANOUT_SECONDS', 8),
    warmupSeconds: envNumber('BENCH_FANOUT_WARMUP_SECONDS', 2),
    senders: envNumber('BENCH_FANOUT_SENDERS', 50),
    concurrency: envNumber('BENCH_SETUP_CONCURRENCY', 16),
    kinds: (process.env.BENCH_FANOUT_KINDS?.split(',') as PeerKind[] | undefined) ?? PEER_KINDS,
    profileDir: process.env.BENCH_FANOUT_PROFILE_DIR,
    log,
  };
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const here = dirname(fileURLToPath(import.meta.url));
  const log = (line: string) => console.log(`[fanout ${new Date().toISOString().slice(11, 19)}] ${line}`);
  const hardTimeout = setTimeout(() => process.exit(2), envNumber('BENCH_TIMEOUT_SECONDS', 900) * 1000);
  hardTimeout.unref();
  runFanout(fanoutSettings(log)).then(
    (result) => {
      printFanoutReport(result);
      const out = process.env.BENCH_FANOUT_OUT ?? join(here, 'results', 'fanout.json');
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error('fan-out run failed:', error);
      process.exit(1);
    },
  );
}

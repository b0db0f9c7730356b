import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChatLoad, type ChatLoadResult } from './chat-load.js';
import { fanoutSettings } from './fanout.js';
import { floodSettings, runFloodPart } from './flood.js';
import { printFloodReport } from './flood-run.js';
import { joinHistorySettings, printJoinHistoryReport, runJoinHistory } from './join-history.js';
import { startServerProcess, type ServerProcess } from './lib/server-process.js';
import { printFanoutReport } from './peers/fanout-report.js';
import { runFanout, type FanoutResult } from './peers/fanout-run.js';
import { printReport, type BenchResults } from './report.js';
import { runTranslationE2e, type TranslationE2eResult } from './translation-e2e.js';
import { runTranslation } from './translation-run.js';
import { envFlag, envNumber } from './lib/env.js';

/*
 * `npm run bench`: the load benchmark (see BENCH.md). Builds nothing itself: the npm script builds the
 * server first, this starts apps/server/dist/server.js as a child process, drives it over loopback, and then
 * runs the translation pipeline in-process. Everything is bounded by BENCH_TIMEOUT_SECONDS.
 */

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

const log = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

const settings = {
  rooms: envNumber('BENCH_ROOMS', 50),
  clientsPerRoom: envNumber('BENCH_CLIENTS_PER_ROOM', 10),
  seconds: envNumber('BENCH_SECONDS', 20),
  warmupSeconds: envNumber('BENCH_WARMUP_SECONDS', 5, (v) => v >= 0),
  rate: envNumber('BENCH_RATE', 0.5),
  drainMs: envNumber('BENCH_DRAIN_MS', 10_000, (v) => v >= 0),
  setupConcurrency: envNumber('BENCH_SETUP_CONCURRENCY', 16),
  timeoutSeconds: envNumber('BENCH_TIMEOUT_SECONDS', 1080),
  /** Part 0: XTalk beside bare `ws` and Socket.IO (bench/peers); `0` skips it. */
  fanout: envFlag('BENCH_FANOUT', true),
  translation: envFlag('BENCH_TRANSLATION', true),
  /** The flood run (one user flooding while quiet rooms are measured); see bench/flood-run.ts. */
  flood: envFlag('BENCH_FLOOD', true),
  /** Joins into a room with history against joins into an empty one; see bench/join-history.ts. */
  joinHistory: envFlag('BENCH_JOIN_HISTORY', true),
  /** LANGUAGES of the chat run's server: one language means nothing to translate (chat fan-out alone). */
  chatLanguages: process.env.BENCH_CHAT_LANGUAGES ?? 'en',
  /** AI_CONCURRENCY of the chat run's server; 0 keeps the server's default. Matters with translation on. */
  chatAiConcurrency: envNumber('BENCH_AI_CONCURRENCY', 0, (v) => Number.isInteger(v) && v >= 0),
  trRooms: envNumber('BENCH_TR_ROOMS', 10),
  trClientsPerRoom: envNumber('BENCH_TR_CLIENTS_PER_ROOM', 4),
  trRatePerRoom: envNumber('BENCH_TR_RATE', 1),
  trSeconds: envNumber('BENCH_TR_SECONDS', 10),
  trChunks: envNumber('BENCH_TR_CHUNKS', 8, Number.isInteger),
  trChunkDelayMs: envNumber('BENCH_TR_CHUNK_DELAY_MS', 20, (v) => v >= 0),
  trSpeech: envFlag('BENCH_TR_SPEECH', true),
  trNotes: envFlag('BENCH_TR_NOTES', true),
};

if (settings.rate > 2) {
  log(
    `warning: BENCH_RATE=${settings.rate} is above the server's 2 frames/s per connection; ` +
      'expect rate_limited errors',
  );
}

let server: ServerProcess | undefined;
const hardTimeout = setTimeout(() => {
  console.error(`bench: hard timeout of ${settings.timeoutSeconds}s reached; stopping`);
  void (server?.stop(5000) ?? Promise.resolve()).finally(() => process.exit(2));
}, settings.timeoutSeconds * 1000);
hardTimeout.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void (server?.stop(5000) ?? Promise.resolve()).finally(() => process.exit(130)));
}

/** Part 2: the translation pipeline through a real server process (LANGUAGES=en,ja, the fake engine). */
async function translationThroughServer(
  entry: string,
  logLines: string[],
  serverExitCodes: Array<number | null>,
): Promise<TranslationE2eResult | { skipped: string }> {
  if (!settings.translation) return { skipped: 'BENCH_TRANSLATION=0' };
  log('translation run: starting the server (LANGUAGES=en,ja, fake provider)...');
  server = await startServerProcess({
    entry,
    env: { LANGUAGES: 'en,ja', FAKE_AI_CHUNK_DELAY_MS: String(settings.trChunkDelayMs) },
  });
  try {
    return await runTranslationE2e(server, {
      rooms: settings.trRooms,
      clientsPerRoom: settings.trClientsPerRoom,
      ratePerRoom: settings.trRatePerRoom,
      seconds: settings.trSeconds,
      chunkDelayMs: settings.trChunkDelayMs,
      drainMs: 10_000,
      setupConcurrency: settings.setupConcurrency,
      log,
    });
  } finally {
    serverExitCodes.push(await server.stop());
    logLines.push(...server.logLines.map((line) => `[translation] ${line}`));
    server = undefined;
  }
}

/** The machine a result was measured on. */
function machineInfo() {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

async function main(): Promise<void> {
  const entry = join(root, 'apps/server/dist/server.js');
  const logLines: string[] = [];
  const serverExitCodes: Array<number | null> = [];

  // ---------------------------------------------------------------- 0. fan-out vs peers, three processes
  const fanout: FanoutResult | undefined = settings.fanout ? await runFanout(fanoutSettings(log)) : undefined;
  if (fanout) {
    // printed and saved at once: the later parts cannot lose it
    printFanoutReport(fanout);
    const fanoutOut = join(here, 'results', 'fanout.json');
    mkdirSync(dirname(fanoutOut), { recursive: true });
    writeFileSync(fanoutOut, `${JSON.stringify(fanout, null, 2)}\n`);
  }

  // ---------------------------------------------------------------- 1. chat fan-out, server process
  log(`chat run: starting the server (LANGUAGES=${settings.chatLanguages}) on 127.0.0.1...`);
  server = await startServerProcess({
    entry,
    env: {
      LANGUAGES: settings.chatLanguages,
      ...(settings.chatAiConcurrency ? { AI_CONCURRENCY: String(settings.chatAiConcurrency) } : {}),
    },
  });
  log(`server pid ${server.pid} at ${server.baseUrl}`);
  let chat: ChatLoadResult;
  try {
    chat = await runChatLoad(server, { ...settings, log });
  } finally {
    serverExitCodes.push(await server.stop());
    logLines.push(...server.logLines.map((line) => `[chat] ${line}`));
    server = undefined;
  }

  // ---------------------------------------------------------------- 1b. flood, server process
  const flood = settings.flood ? await runFloodPart(entry, { ...floodSettings(), log }) : undefined;

  // ---------------------------------------------------------------- 1c. joining a room with history
  const joinHistory = settings.joinHistory
    ? await runJoinHistory(entry, joinHistorySettings(log))
    : undefined;

  // ---------------------------------------------------------------- 2. translation, server process
  const translationServer = await translationThroughServer(entry, logLines, serverExitCodes);

  // ---------------------------------------------------------------- 3. translation, in-process
  const translation = settings.translation
    ? await runTranslation({
        rooms: settings.trRooms,
        clientsPerRoom: settings.trClientsPerRoom,
        ratePerRoom: settings.trRatePerRoom,
        seconds: settings.trSeconds,
        chunks: settings.trChunks,
        chunkDelayMs: settings.trChunkDelayMs,
        speech: settings.trSpeech,
        notes: settings.trNotes,
        languages: ['en', 'ja'],
        drainMs: 10_000,
        log,
      })
    : { skipped: 'BENCH_TRANSLATION=0' };

  const results: BenchResults = {
    date: new Date().toISOString(),
    machine: machineInfo(),
    settings,
    chat,
    translationServer,
    translation,
    ...(flood ? { flood: flood.result } : {}),
    ...(joinHistory ? { joinHistory: joinHistory.result } : {}),
    ...(fanout ? { fanout } : {}),
    serverLog: {
      lines: logLines.length + (flood?.logLines.length ?? 0) + (joinHistory?.logLines.length ?? 0),
      first: [...logLines, ...(flood?.logLines ?? []), ...(joinHistory?.logLines ?? [])].slice(0, 50),
    },
    serverExitCodes,
  };
  printReport(results);
  if (flood) printFloodReport(flood.result);
  if (joinHistory) printJoinHistoryReport(joinHistory.result);
  if (fanout) printFanoutReport(fanout);
  // latest.json for a quick look (not committed); a dated copy to commit beside what a change quotes
  const dated = join(here, 'results', `${results.date.slice(0, 16).replace(':', '-')}.json`);
  const out = process.env.BENCH_OUT ?? join(here, 'results', 'latest.json');
  for (const file of process.env.BENCH_OUT ? [out] : [out, dated]) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  }
  log(`results written to ${out}${process.env.BENCH_OUT ? '' : ` and ${dated}`}`);
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    console.error('bench failed:', error);
    await server?.stop(5000);
    process.exit(1);
  },
);

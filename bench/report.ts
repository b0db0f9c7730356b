import type { ChatLoadResult } from './chat-load.js';
import type { FloodResult } from './flood-run.js';
import type { JoinHistoryResult } from './join-history.js';
import type { FanoutResult } from './peers/fanout-run.js';
import type { Summary } from './lib/stats.js';
import type { TranslationE2eResult } from './translation-e2e.js';
import type { TranslationRunResult } from './translation-run.js';

/* The readable table printed at the end of `npm run bench`; the same data goes to bench/results/ as JSON. */

export interface BenchResults {
  date: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; platform: string };
  settings: Record<string, number | boolean | string>;
  chat: ChatLoadResult;
  /** Translation against the server child process. */
  translationServer: TranslationE2eResult | { skipped: string };
  /** Translation in-process (exact chunk fan-out and breakdown). */
  translation: TranslationRunResult | { skipped: string };
  /** Quiet rooms' delivery while one user floods (BENCH_FLOOD). */
  flood?: FloodResult;
  /** Joins into a room with history against an empty one (BENCH_JOIN_HISTORY). */
  joinHistory?: JoinHistoryResult;
  /** XTalk beside bare `ws` and Socket.IO (BENCH_FANOUT). */
  fanout?: FanoutResult;
  /** Warnings and errors the servers logged (LOG_LEVEL=warn), first 50 lines. */
  serverLog: { lines: number; first: string[] };
  serverExitCodes: Array<number | null>;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const mib = (kib: number) => `${(kib / 1024).toFixed(1)} MiB`;
const dist = (s: Summary) =>
  s.count === 0
    ? 'n/a'
    : `p50 ${ms(s.p50)}  p99 ${ms(s.p99)}  max ${ms(s.max)}  (n=${s.count.toLocaleString('en')})`;

function table(title: string, rows: Array<[string, string]>): string {
  const width = Math.max(...rows.map(([key]) => key.length));
  return [`\n${title}`, '-'.repeat(title.length), ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)].join(
    '\n',
  );
}

const counts = (byCode: Record<string, number>) =>
  Object.entries(byCode)
    .map(([code, count]) => `${code}=${count}`)
    .join(' ');

export function printReport(results: BenchResults): void {
  const { machine } = results;
  const lines: string[] = [];
  lines.push(
    `\nXTalk bench ${results.date} on ${machine.cpus} x ${machine.cpuModel}, ${machine.memoryGiB} GiB, node ${machine.node}`,
  );
  lines.push(chatSection(results));
  const te = results.translationServer;
  if (!('skipped' in te)) lines.push(translationServerSection(te));
  const tr = results.translation;
  lines.push('skipped' in tr ? `\nTranslation run skipped: ${tr.skipped}` : translationPipelineSection(tr));
  console.log(lines.join('\n'));
  if (results.serverLog.lines > 0) {
    console.log('\nserver log (first lines):');
    for (const line of results.serverLog.first.slice(0, 10)) console.log(`  ${line.slice(0, 300)}`);
  }
}

/** Part 1: the chat run, with the servers' log and exit codes. */
function chatSection(results: BenchResults): string {
  const { chat } = results;
  return table('Chat fan-out (server child process, real sockets)', [
    ['connections', `${chat.connections} (server says ${chat.serverReportedConnections ?? '?'})`],
    ['rooms x clients', `${chat.rooms} x ${chat.params.clientsPerRoom}`],
    ['send rate', `${chat.params.rate} msg/s per client, ${chat.params.seconds} s measured`],
    ['messages sent', `${chat.messagesSent} (${chat.messagesPerSecond} msg/s)`],
    [
      'deliveries',
      `${chat.deliveries} of ${chat.expectedDeliveries} (${chat.deliveriesPerSecond}/s), missing ${chat.missingDeliveries}`,
    ],
    ['delivery latency', dist(chat.latencyMs)],
    ['  sender echo', dist(chat.echoLatencyMs)],
    ['server RSS idle', mib(chat.memory.idleKiB)],
    ['server RSS before sockets', mib(chat.memory.beforeConnectKiB)],
    ['server RSS after sockets', mib(chat.memory.afterConnectKiB)],
    [
      'per connection',
      `${chat.memory.perConnectionKiB} KiB (after - before) / n; median of 5 batch steps ${chat.memory.perConnectionBatchMedianKiB} KiB [${chat.memory.perConnectionBatchStepsKiB.join(', ')}]`,
    ],
    ['server RSS after load', mib(chat.memory.afterLoadKiB)],
    ['server RSS after close', mib(chat.memory.afterCloseKiB)],
    ['server RSS peak', mib(chat.memory.peakKiB)],
    ['server CPU (load)', `${chat.cpu.serverPercent}% of one core`],
    [
      'load generator',
      `${chat.cpu.loadGeneratorPercent}% of one core, loop delay p99 ${ms(chat.cpu.loadGeneratorLoopDelayP99Ms)}`,
    ],
    [
      'setup',
      `logins ${ms(chat.setup.loginMs)} (${chat.setup.loginsPerSecond}/s), joins ${ms(chat.setup.joinMs)}, sockets ${ms(chat.setup.connectMs)}`,
    ],
    ['error frames', counts(chat.errors.frames) || 'none'],
    [
      'closes / socket errors',
      `${chat.errors.unexpectedCloses} unexpected closes, ${chat.errors.socketErrors} socket errors, ${chat.errors.setupFailures} setup failures`,
    ],
    [
      'server log (warn+)',
      `${results.serverLog.lines} lines (both servers), exit codes ${results.serverExitCodes.join(', ')}`,
    ],
    [
      'server translation',
      chat.serverTranslation
        ? `message -> translationComplete ${dist(chat.serverTranslation.messageToCompleteMs)}`
        : `none (LANGUAGES=${results.settings.chatLanguages}: nothing to translate)`,
    ],
  ]);
}

/** Part 2: translation through a server process. */
function translationServerSection(te: TranslationE2eResult): string {
  return table('Translation end to end (server child process, LANGUAGES=en,ja, fake provider)', [
    [
      'load',
      `${te.params.rooms} rooms x ${te.params.clientsPerRoom} clients (en/ja), ${te.params.ratePerRoom} msg/s per room, ${te.params.seconds} s`,
    ],
    [
      'provider',
      `${te.chunksPerTranslation} chunks (one per word) x ${te.params.chunkDelayMs} ms = ${te.nominalProviderMs} ms nominal`,
    ],
    [
      'translationComplete',
      `${te.completesReceived} of ${te.completesExpected} (${te.messages} messages x clients)`,
    ],
    ['message -> complete', dist(te.messageToCompleteMs)],
    ['overhead (minus provider)', dist(te.overheadMs)],
    ['message -> first chunk', dist(te.messageToFirstChunkMs)],
    ['chunk gap - delay', dist(te.chunkGapExcessMs)],
    ['chat delivery meanwhile', dist(te.messageLatencyMs)],
    ['audio frames', String(te.audioFrames)],
    ['server CPU', `${te.serverCpuPercent}% of one core, RSS ${mib(te.serverRssAfterKiB)}`],
    ['error frames', counts(te.errors) || 'none'],
  ]);
}

/** Part 3: the translation pipeline in-process. */
function translationPipelineSection(tr: TranslationRunResult): string {
  return table('Translation pipeline (IN-PROCESS: service + room hub + real sockets; fake provider)', [
    [
      'load',
      `${tr.params.rooms} rooms x ${tr.params.clientsPerRoom} clients (en/ja), ${tr.params.ratePerRoom} msg/s per room, ${tr.params.seconds} s`,
    ],
    [
      'provider',
      `${tr.params.chunks} chunks x ${tr.params.chunkDelayMs} ms = ${tr.nominalProviderMs} ms nominal; speech ${tr.params.speech}, notes ${tr.params.notes}`,
    ],
    [
      'translations',
      `${tr.translationsCompleted} of ${tr.translationsExpected} (${tr.messages} messages), failed/dropped ${tr.failedOrDropped}`,
    ],
    ['provider actual', dist(tr.providerMs)],
    ['broadcast -> complete', dist(tr.broadcastToCompleteMs)],
    ['overhead vs nominal', dist(tr.overheadVsNominalMs)],
    ['overhead vs actual', dist(tr.overheadVsMeasuredMs)],
    ['queue (slot wait)', dist(tr.queueMs)],
    ['chunk fan-out', dist(tr.chunkFanOutMs)],
    ['message fan-out', dist(tr.messageFanOutMs)],
    ['frames', `${tr.chunkFrames} chunks, ${tr.audioFrames} audio (${mib(tr.audioBytes / 1024)})`],
    [
      'service only (no fan-out)',
      `overhead p50 ${ms(tr.serviceOnly.overheadMs.p50)} p95 ${ms(tr.serviceOnly.overheadMs.p95)} max ${ms(tr.serviceOnly.overheadMs.max)} (n=${tr.serviceOnly.overheadMs.count})`,
    ],
  ]);
}

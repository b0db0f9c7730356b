import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import type { ServerFrame } from '@xtalk/protocol';
import type { AttackerStats } from './flood-attacker.js';
import { chatFrame, guestLogin, joinRoom, mapLimit, openSocket } from './lib/guest.js';
import { paceSenders } from './lib/pace.js';
import type { ServerProcess } from './lib/server-process.js';
import { round, summarise, type Summary } from './lib/stats.js';

/*
 * The flood run ("one user cannot stall everyone"). Quiet rooms chat at a steady rate while
 * their delivery latency is measured, first alone ("quiet" phase), then while one user floods ("flood"
 * phase): that user tries to open `attackerSockets` sockets, and on every socket it gets sends junk as fast
 * as it can (invalid JSON, chat frames, updateUsername frames that each cost a database read, junk
 * binary), reopening a socket whenever the server closes one. The server runs its default per-user limits;
 * only the per-address ones are lifted, since every bench client comes from 127.0.0.1. The goal: the quiet
 * rooms' p99 during the flood stays under 2x their quiet p99. The machine's load average is recorded with
 * each phase, since other work on a shared machine moves these numbers too.
 */

export interface FloodOptions {
  rooms: number;
  clientsPerRoom: number;
  /** Messages per second per quiet client. */
  rate: number;
  /** Length of each phase (s). */
  phaseSeconds: number;
  /** Sockets the flooder tries to open. */
  attackerSockets: number;
  /** Junk frames per second the flooder tries to send on each open socket. */
  junkPerSecond: number;
  setupConcurrency: number;
  log: (line: string) => void;
}

interface PhaseResult {
  latencyMs: Summary;
  missing: number;
  sent: number;
  serverCpuPercent: number;
  /** os.loadavg() 1-minute value at the start and end of the phase. */
  loadAverage: { start: number; end: number };
  /** This (measuring) process's event-loop delay p99: high means the measurement itself lagged. */
  generatorLoopDelayP99Ms: number;
}

export interface FloodResult {
  params: Omit<FloodOptions, 'log'>;
  quiet: PhaseResult;
  flood: PhaseResult;
  /** flood p99 / quiet p99: the goal is at most 2. */
  p99Ratio: number;
  attacker: AttackerStats;
}

const PREFIX = 'fq:';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runFlood(server: ServerProcess, options: FloodOptions): Promise<FloodResult> {
  const { log } = options;
  const total = options.rooms * options.clientsPerRoom;
  log(`flood run: ${total} quiet clients in ${options.rooms} rooms, then one user flooding...`);
  const logins = await mapLimit(Array.from({ length: total }), options.setupConcurrency, () =>
    guestLogin(server.baseUrl),
  );
  const roomIds: string[] = [];
  for (let room = 0; room < options.rooms; room++) {
    roomIds[room] = (
      await joinRoom(server.baseUrl, logins[room * options.clientsPerRoom]!.token, null)
    ).roomId;
  }

  let phase: 'quiet' | 'flood' | undefined;
  const sentAt = new Map<string, { at: number; phase: 'quiet' | 'flood'; expected: number; seen: number }>();
  const latencies = { quiet: [] as number[], flood: [] as number[] };
  const sockets = await mapLimit(logins, options.setupConcurrency, async (login, index) => {
    const room = Math.floor(index / options.clientsPerRoom);
    const session = await joinRoom(server.baseUrl, login.token, roomIds[room]!);
    return openSocket(server.wsBase, login, session, 'en', (frame: ServerFrame, receivedAt: number) => {
      if (frame.type !== 'message' || !frame.message.startsWith(PREFIX)) return;
      const entry = sentAt.get(frame.message);
      if (!entry) return;
      entry.seen++;
      latencies[entry.phase].push(receivedAt - entry.at);
    });
  });
  let seq = 0;
  const stopSending = paceSenders(sockets.length, 1000 / options.rate, (index) => {
    const ws = sockets[index]!;
    if (!phase || ws.readyState !== WebSocket.OPEN) return;
    const text = `${PREFIX}${index}:${seq++}`;
    sentAt.set(text, { at: performance.now(), phase, expected: options.clientsPerRoom, seen: 0 });
    ws.send(chatFrame(roomIds[Math.floor(index / options.clientsPerRoom)], 'en', text));
  });

  const measure = (name: 'quiet' | 'flood') =>
    measurePhase(server, options.phaseSeconds, (sending) => (phase = sending ? name : undefined));

  await sleep(2000); // warm-up: the first sends settle
  log(`flood run: quiet phase (${options.phaseSeconds} s)...`);
  const quietPhase = await measure('quiet');

  // the flooder runs in a process of its own, so its sending does not delay this one's measuring
  const attacker = await startAttackerProcess(server, options);
  log(`flood run: flood phase (${options.phaseSeconds} s)...`);
  const floodPhase = await measure('flood');
  const attackerStats = await attacker.stop();

  await sleep(5000); // deliveries still under way
  stopSending();
  for (const ws of sockets) ws.close();

  const phaseResult = (name: 'quiet' | 'flood', measured: typeof quietPhase): PhaseResult => {
    const entries = [...sentAt.values()].filter((entry) => entry.phase === name);
    return {
      ...measured,
      latencyMs: summarise(latencies[name]),
      sent: entries.length,
      missing: entries.reduce((n, entry) => n + Math.max(0, entry.expected - entry.seen), 0),
    };
  };
  const quiet = phaseResult('quiet', quietPhase);
  const flood = phaseResult('flood', floodPhase);
  return {
    params: { ...options, log: undefined } as unknown as FloodResult['params'],
    quiet,
    flood,
    p99Ratio: round(flood.latencyMs.p99 / Math.max(quiet.latencyMs.p99, 0.001), 2),
    attacker: attackerStats,
  };
}

/** One phase: the quiet clients send while it lasts; the server's CPU, the load and this loop's delay. */
async function measurePhase(
  server: ServerProcess,
  phaseSeconds: number,
  sending: (on: boolean) => void,
): Promise<Omit<PhaseResult, 'missing' | 'latencyMs' | 'sent'>> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpuStart = server.cpuMs();
  const start = loadavg()[0]!;
  const t0 = performance.now();
  sending(true);
  await sleep(phaseSeconds * 1000);
  sending(false);
  const cpu = ((server.cpuMs() - cpuStart) / (performance.now() - t0)) * 100;
  loop.disable();
  return {
    serverCpuPercent: round(cpu),
    loadAverage: { start: round(start, 2), end: round(loadavg()[0]!, 2) },
    generatorLoopDelayP99Ms: round(loop.percentile(99) / 1e6),
  };
}

export function printFloodReport(result: FloodResult): void {
  const dist = (s: Summary) =>
    `p50 ${s.p50.toFixed(1)} ms  p99 ${s.p99.toFixed(1)} ms  max ${s.max.toFixed(1)} ms  (n=${s.count})`;
  const phase = (p: PhaseResult) =>
    `${dist(p.latencyMs)}, missing ${p.missing}, server CPU ${p.serverCpuPercent}%, load ${p.loadAverage.start} -> ${p.loadAverage.end}, generator loop delay p99 ${p.generatorLoopDelayP99Ms} ms`;
  const a = result.attacker;
  const lines = [
    '',
    'Flood: quiet rooms while one user floods',
    '----------------------------------------',
    `  quiet rooms, quiet         ${phase(result.quiet)}`,
    `  quiet rooms, during flood  ${phase(result.flood)}`,
    `  p99 flood / quiet          ${result.p99Ratio}x (goal: at most 2x) ${result.p99Ratio <= 2 ? 'OK' : 'ABOVE GOAL'}`,
    `  flooder                    ${a.socketsOpened} sockets opened, ${a.socketsRefused} refused (429), ${a.joinsRefused} joins refused, ${a.framesSent.toLocaleString('en')} frames sent`,
    `  flooder closed by server   ${JSON.stringify(a.closedByServer)}; error frames ${JSON.stringify(a.errorFrames)}`,
  ];
  console.log(lines.join('\n'));
}

/** Starts bench/flood-attacker.ts as a child process; `stop` ends it and returns what it counted. */
async function startAttackerProcess(server: ServerProcess, options: FloodOptions) {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'flood-attacker.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: {
      ...process.env,
      FLOOD_BASE_URL: server.baseUrl,
      FLOOD_WS_BASE: server.wsBase,
      FLOOD_SOCKETS: String(options.attackerSockets),
      FLOOD_JUNK_PER_SECOND: String(options.junkPerSecond),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // flooding starts once it prints "flooding"
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (output.includes('flooding')) {
        clearInterval(check);
        resolve();
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(check);
      reject(new Error(`the flooder exited early (${code})`));
    });
  });
  return {
    async stop(): Promise<AttackerStats> {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      const last = output.trim().split('\n').at(-1) ?? '{}';
      return JSON.parse(last) as AttackerStats;
    },
  };
}

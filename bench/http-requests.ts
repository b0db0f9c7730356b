import { request as httpRequest, Agent } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { envFlag, envNumber } from './lib/env.js';
import { guestLogin, joinRoom } from './lib/guest.js';
import { startServerProcess, type ServerProcess } from './lib/server-process.js';
import { median, round } from './lib/stats.js';

/*
 * 4. HTTP requests (`npm run bench`; alone: `node --import tsx bench/http-requests.ts` after
 * `npm run build -w @xtalk/server`). A few representative routes, each driven by a concurrent client over
 * keep-alive: a guest joining its room (`POST /xtalk`: a body checked, an answer written), a room's
 * glossary (`GET`, a member's read), the health answer, and a payment verification refused for a missing
 * field (`POST /api/purchase/verify/a`: the refusal path). Beside XTalk, in the same run: a bare Fastify
 * app answering the same JSON (bench/peers/fastify-json.mjs) and, with BENCH_HTTP_BEFORE naming another
 * build's server.js, that build (an earlier commit, to compare two versions). The servers take turns,
 * route by route, in an order that alternates every round; each figure is the median of the rounds, with
 * its swing (max - min over the median). Reported: requests per second and server CPU per 1000 requests.
 */

const here = dirname(fileURLToPath(import.meta.url));
const settings = {
  requests: envNumber('BENCH_HTTP_REQUESTS', 3000),
  concurrency: envNumber('BENCH_HTTP_CONCURRENCY', 16),
  rounds: envNumber('BENCH_HTTP_ROUNDS', 5),
  before: process.env.BENCH_HTTP_BEFORE,
};
const log = (line: string) => console.log(`[http ${new Date().toISOString().slice(11, 19)}] ${line}`);

interface Call {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  status: number;
}
type Route = 'join' | 'glossary' | 'health' | 'refusal';
const ROUTES: Route[] = ['join', 'glossary', 'health', 'refusal'];

interface Target {
  name: string;
  server: ServerProcess;
  calls: Record<Route, Call>;
  agent: Agent;
}

function send(target: Target, call: Call): Promise<string> {
  const url = new URL(call.path, target.server.baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: call.method, agent: target.agent, headers: call.headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (response.statusCode !== call.status) {
            reject(new Error(`${target.name} ${call.path} -> ${response.statusCode}: ${text}`));
          } else resolve(text);
        });
      },
    );
    req.on('error', reject);
    req.end(call.body);
  });
}

/** A guest in a room of its own on `server`, and the calls it makes. */
async function callsOf(server: ServerProcess): Promise<Record<Route, Call>> {
  const guest = await guestLogin(server.baseUrl);
  const room = await joinRoom(server.baseUrl, guest.token, null);
  const bearer = { authorization: `Bearer ${guest.token}` };
  const json = { 'content-type': 'application/json' };
  return {
    join: {
      method: 'POST',
      path: '/xtalk',
      headers: { ...bearer, ...json },
      body: JSON.stringify({ action: 'join', roomId: room.roomId }),
      status: 200,
    },
    glossary: { method: 'GET', path: `/api/rooms/${room.roomId}/glossary`, headers: bearer, status: 200 },
    health: { method: 'GET', path: '/api/health', headers: {}, status: 200 },
    refusal: { method: 'POST', path: '/api/purchase/verify/a', headers: json, body: '{}', status: 400 },
  };
}

interface Phase {
  perSecond: number;
  cpuMsPer1k: number;
}

async function phase(target: Target, route: Route): Promise<Phase> {
  const call = target.calls[route];
  let next = 0;
  const cpuBefore = target.server.cpuMs();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: settings.concurrency }, async () => {
      while (next++ < settings.requests) await send(target, call);
    }),
  );
  const wallMs = performance.now() - started;
  const cpuMs = target.server.cpuMs() - cpuBefore;
  return { perSecond: (settings.requests / wallMs) * 1000, cpuMsPer1k: (cpuMs / settings.requests) * 1000 };
}

const XTALK_ENV = {
  LANGUAGES: 'en',
  // every request comes from one address and one guest: the per-address and per-user limits are lifted
  RATE_LIMIT_API_PER_MINUTE_PER_IP: '100000000',
  ROOM_JOINS_PER_MINUTE_PER_USER: '100000000',
  RATE_LIMIT_API_PER_MINUTE_PER_USER: '100000000',
};

async function startTargets(): Promise<Target[]> {
  // BENCH_XTALK_ENTRY: another build as XTalk, as for the other parts
  const entry = process.env.BENCH_XTALK_ENTRY ?? join(here, '..', 'apps/server/dist/server.js');
  const entries: [string, string][] = [['xtalk', entry]];
  if (settings.before) entries.push(['before', settings.before]);
  const targets: Target[] = [];
  for (const [name, entry] of entries) {
    const server = await startServerProcess({ entry, env: XTALK_ENV });
    targets.push({ name, server, calls: await callsOf(server), agent: new Agent({ keepAlive: true }) });
  }
  // the peer answers with the bodies XTalk answered
  const first = targets[0]!;
  const bodies: Record<string, unknown> = {};
  for (const route of ROUTES) bodies[route] = JSON.parse(await send(first, first.calls[route]));
  const peer = await startServerProcess({
    entry: join(here, 'peers/fastify-json.mjs'),
    env: { BENCH_HTTP_BODIES: JSON.stringify(bodies) },
  });
  targets.push({
    name: 'bare fastify',
    server: peer,
    calls: first.calls,
    agent: new Agent({ keepAlive: true }),
  });
  return targets;
}

function report(results: Map<string, Phase[]>, targets: Target[]) {
  const figure = (phases: Phase[], key: keyof Phase) => {
    const values = phases.map((p) => p[key]);
    const mid = median(values);
    return { median: mid, swing: mid === 0 ? 0 : (Math.max(...values) - Math.min(...values)) / mid };
  };
  log(
    `${settings.rounds} rounds of ${settings.requests} requests, ${settings.concurrency} at a time, per route and server`,
  );
  for (const route of ROUTES) {
    const base = figure(results.get(`${route} xtalk`)!, 'cpuMsPer1k').median;
    for (const { name } of targets) {
      const phases = results.get(`${route} ${name}`)!;
      const rate = figure(phases, 'perSecond');
      const cpu = figure(phases, 'cpuMsPer1k');
      log(
        `${route.padEnd(9)} ${name.padEnd(13)} ${String(Math.round(rate.median)).padStart(6)} req/s ` +
          `(swing ${round(rate.swing * 100, 0)}%)  ${round(cpu.median, 1)} ms CPU/1k ` +
          `(swing ${round(cpu.swing * 100, 0)}%)  CPU vs xtalk ${round(cpu.median / base, 2)}`,
      );
    }
  }
}

async function main() {
  const targets = await startTargets();
  const results = new Map<string, Phase[]>();
  try {
    // one unmeasured round warms every route of every server up
    for (const route of ROUTES) for (const target of targets) await phase(target, route);
    for (let round_ = 0; round_ < settings.rounds; round_++) {
      const order = round_ % 2 === 0 ? targets : [...targets].reverse();
      for (const route of ROUTES) {
        for (const target of order) {
          const key = `${route} ${target.name}`;
          results.set(key, [...(results.get(key) ?? []), await phase(target, route)]);
        }
      }
      log(`round ${round_ + 1}/${settings.rounds} done`);
    }
    report(results, targets);
  } finally {
    for (const target of targets) {
      target.agent.destroy();
      await target.server.stop();
    }
  }
}

if (envFlag('BENCH_HTTP', true)) await main();

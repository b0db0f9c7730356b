import { monitorEventLoopDelay } from 'node:perf_hooks';
import { chatFrame } from '../lib/guest.js';
import { paceSenders, waitUntil } from '../lib/pace.js';
import type { ServerProcess } from '../lib/server-process.js';
import { round } from '../lib/stats.js';
import type { Client } from './clients.js';
import type { Deliveries } from './deliveries.js';

/*
 * The chat run's load: every connected client sends at the same rate, first for a warm-up that is not
 * counted, then for the measured phase, during which the server's CPU and this process's CPU and event-loop
 * delay are read too (they show whether the load generator kept up). Then the deliveries still under way.
 */

interface Load {
  seconds: number;
  warmupSeconds: number;
  rate: number;
  log: (line: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function sendAtRate(
  server: ServerProcess,
  connected: readonly Client[],
  deliveries: Deliveries,
  options: Load,
) {
  const send = (client: Client) => {
    const ws = client.ws;
    if (!ws || ws.readyState !== ws.OPEN) return;
    const message = deliveries.message(`${client.index}-${client.seq++}`, client.room, client.index);
    ws.send(chatFrame(client.session.roomId, 'en', message));
  };
  options.log(
    `sending ${options.rate} msg/s per client (${round(options.rate * connected.length)} msg/s in all): ` +
      `${options.warmupSeconds}s warm-up, ${options.seconds}s measured...`,
  );
  const stop = paceSenders(connected.length, 1000 / options.rate, (index) => send(connected[index]!));
  await sleep(options.warmupSeconds * 1000);

  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const cpuStart = { server: server.cpuMs(), self: process.cpuUsage(), at: performance.now() };
  deliveries.measuring = true;
  await sleep(options.seconds * 1000);
  deliveries.measuring = false;
  stop();
  const wallMs = performance.now() - cpuStart.at;
  const selfCpu = process.cpuUsage(cpuStart.self);
  const serverPercent = ((server.cpuMs() - cpuStart.server) / wallMs) * 100;
  const loadGeneratorPercent = ((selfCpu.user + selfCpu.system) / 1000 / wallMs) * 100;
  loopDelay.disable();
  return {
    wallMs,
    cpu: {
      serverPercent: round(serverPercent),
      loadGeneratorPercent: round(loadGeneratorPercent),
      loadGeneratorLoopDelayP99Ms: round(loopDelay.percentile(99) / 1e6),
      loadGeneratorLoopDelayMaxMs: round(loopDelay.max / 1e6),
    },
  };
}

/** Waits up to `drainMs` for the measured messages' deliveries; returns how many never came. */
export async function drain(connected: readonly Client[], deliveries: Deliveries, drainMs: number) {
  const inRoom = new Map<number, number>();
  for (const client of connected) inRoom.set(client.room, (inRoom.get(client.room) ?? 0) + 1);
  const expectedDeliveries = deliveries.expected(inRoom);
  await waitUntil(() => deliveries.deliveredSoFar() >= expectedDeliveries, drainMs);
  return { expectedDeliveries, missingDeliveries: expectedDeliveries - deliveries.deliveredSoFar() };
}

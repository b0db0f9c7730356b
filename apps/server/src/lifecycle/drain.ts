import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { systemClock, type Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Gateway } from '../gateway/index.js';
import type { Readiness } from './readiness.js';

/*
 * The drain of a node before it stops (SIGTERM; decision 0144): not ready first, so the proxy sends
 * nothing new; new sockets and joins refused with 503 and retry-after; every connection stores what it
 * already received; then the sockets close with 1012 over the drain window, and their clients reconnect
 * elsewhere and resume by offset. Translations already paid for keep running until the grace, counted
 * from the start of the drain, runs out; what still runs then is recorded as failed and refunded.
 */

export interface DrainSettings {
  drainSeconds: number;
  shutdownGraceSeconds: number;
}

export function createDrain(deps: {
  readiness: Readiness;
  gateway: Pick<Gateway, 'drain' | 'size'>;
  settings: DrainSettings;
  clock: Clock;
  logger: FastifyBaseLogger;
}) {
  let startedAt: number | undefined;
  return {
    /** Drains the sockets over `spreadMs` (DRAIN_SECONDS by default); resolves once all are closed. */
    async drain(spreadMs = deps.settings.drainSeconds * 1000): Promise<void> {
      startedAt ??= deps.clock.now();
      deps.readiness.drain();
      deps.logger.info({ sockets: deps.gateway.size(), spreadMs }, 'draining');
      await deps.gateway.drain(spreadMs);
      deps.logger.info('drained: every socket is closed');
    },
    /** What is left of the shutdown grace for running translations; `fallbackMs` when no drain ran. */
    graceLeftMs(fallbackMs: number): number {
      if (startedAt === undefined) return fallbackMs;
      const graceMs = deps.settings.shutdownGraceSeconds * 1000;
      return Math.max(0, graceMs - (deps.clock.now() - startedAt));
    },
  };
}
export type Drain = ReturnType<typeof createDrain>;

/** The drain of `app`'s node, as `app.xtalkDrain` (server.ts calls it on SIGTERM). */
export function registerDrain(
  app: FastifyInstance,
  deps: { readiness: Readiness; gateway: Pick<Gateway, 'drain' | 'size'>; config: Config },
): Drain {
  const { config } = deps;
  const drain = createDrain({
    ...deps,
    settings: { drainSeconds: config.DRAIN_SECONDS, shutdownGraceSeconds: config.SHUTDOWN_GRACE_SECONDS },
    // a drain takes real seconds, whatever clock the app's tests run on
    clock: systemClock,
    logger: app.log,
  });
  app.decorate('xtalkDrain', drain.drain);
  return drain;
}

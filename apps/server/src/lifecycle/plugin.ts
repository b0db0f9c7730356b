import fp from 'fastify-plugin';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { TRANSLATION_CLOSE_MS } from '../translation/index.js';
import { registerDrain } from './drain.js';
import { healthRoute } from './health.js';
import { registerReadiness, type ReadinessProbe } from './readiness.js';
import { startSweeps } from './sweeps.js';

/*
 * A node's life: readiness from its start, then health, the drain, the background sweeps and the order
 * in which everything winds down. The order is written here once, because it crosses modules: sockets
 * finish storing what they received before anything they need is closed, and the stores close last.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether this node takes new work (GET /api/health/ready); the drain turns it off. */
    xtalkReadiness: ReadinessProbe;
    /**
     * Drains the node (SIGTERM, lifecycle/drain.ts): not ready, new sockets and joins refused, sockets
     * closed with 1012 over `spreadMs` (DRAIN_SECONDS by default). `close()` follows it.
     */
    xtalkDrain: (spreadMs?: number) => Promise<void>;
  }
}

/** Registered right after the stores, before the routes, so its refusal hook covers the join. */
export const readinessPlugin = fp(
  async (app) => {
    const readiness = registerReadiness(app, {
      db: app.xtalkDb,
      bus: app.xtalkBus,
      redisConfigured: app.xtalkRedis !== undefined,
    });
    app.decorate('xtalkReadiness', readiness);
  },
  { name: 'xtalk-readiness', dependencies: ['xtalk-store', 'xtalk-bus'] },
);

/** Registered last: it winds down what every other plugin started. */
export const lifecyclePlugin = fp<{ config: Config; clock: Clock }>(
  async (app, { config, clock }) => {
    const { xtalkDb: db, xtalkBus: bus, xtalkRedis: redis, xtalkHub: hub } = app;
    const { gateway, heartbeat } = app.xtalkGateway;
    const { fairRooms } = app.xtalkMessages;
    const { service: translation, supersession } = app.xtalkTranslation;
    healthRoute(app, { db, bus, redis, hub, fairRooms });
    const drain = registerDrain(app, { readiness: app.xtalkReadiness, gateway, config });
    // the journey wound down from its end: no socket brings a new message in while the work behind closes
    app.addHook('preClose', async () => {
      await gateway.close();
      await supersession.close();
      await translation.close(drain.graceLeftMs(TRANSLATION_CLOSE_MS));
      app.xtalkSummaries.close();
      app.xtalkCredits.close();
      await app.xtalkBalanceEvents.close();
      await app.xtalkAi.close?.();
    });
    const sweeper = startSweeps(config, db, clock, app.log);
    app.addHook('onClose', async () => {
      await sweeper.stop();
      await heartbeat?.stop();
      await bus.close();
      await redis?.quit().catch(() => undefined);
      await db.close();
    });
  },
  { name: 'xtalk-lifecycle', dependencies: ['xtalk-gateway', 'xtalk-balance-events'] },
);

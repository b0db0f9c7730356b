import Fastify, { LogController, type FastifyInstance, type RouteOptions } from 'fastify';
import { aiPlugin } from './ai/plugin.js';
import type { AiProvider } from './ai/index.js';
import { authPlugin, playersPlugin } from './accounts/plugin.js';
import type { BotCheck } from './accounts/index.js';
import { busPlugin, connectBus } from './bus/plugin.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { balanceEventsPlugin, creditsPlugin } from './credits/plugin.js';
import { glossaryPlugin } from './glossary/plugin.js';
import { logOptions } from './http/index.js';
import { httpPlugin, rateLimitsPlugin } from './http/plugin.js';
import { lifecyclePlugin, readinessPlugin } from './lifecycle/plugin.js';
import { metricsPlugin } from './metrics/plugin.js';
import { paymentsPlugin } from './payments/plugin.js';
import { storePurchaseAccount } from './payments/index.js';
import { deliveryPlugin } from './delivery/plugin.js';
import type { Departures } from './delivery/index.js';
import { gatewayPlugin } from './gateway/plugin.js';
import { roomsPlugin } from './rooms/plugin.js';
import { openDatabase, storePlugin } from './store/plugin.js';
import { summaryPlugin } from './summary/plugin.js';
import { translationPlugin } from './translation/plugin.js';
import type { Meter } from './translation/index.js';
import { playerRecords, roomsOfUsers, translationStore } from './use-cases/index.js';
import { messagesPlugin } from './messages/plugin.js';
import { voicePlugin } from './voice/plugin.js';
import { inlineScriptSources } from './web/index.js';
import { webPlugin } from './web/plugin.js';

export interface AppOptions {
  config: Config;
  clock?: Clock;
  /** Replaces the configured bot check (tests). */
  botCheck?: BotCheck;
  /** Keep the database in memory instead of DATA_DIR (tests; ignored when DATABASE_URL is set). */
  inMemoryDb?: boolean;
  /**
   * A new embedded database starts from these files (a PGlite data directory tarball) instead of empty:
   * tests start every server from one database migrated once per run (testing/migrated-database.ts).
   */
  databaseSnapshot?: Uint8Array;
  webRoot?: string;
  logger?: boolean | object;
  heartbeatMs?: number;
  /** Replaces the LEAVE grace's timer (tests end the grace when they say, not after a real wait). */
  departures?: Departures;
  /** Replaces the credits meter (tests and the bench that measure the pipeline without the ledger). */
  meter?: Meter;
  /** Replaces the configured AI provider (the bench: fake engines of fixed latencies). */
  provider?: AiProvider;
  /** Told of every route as it is added (tests: the route table the OpenAPI document must match). */
  onRoute?: (route: RouteOptions) => void;
}

/** The Fastify instance with the server options a node behind a proxy and a drain needs. */
function fastifyFor(config: Config, logger: AppOptions['logger']): FastifyInstance {
  return Fastify({
    // a test's own stream and level go over the redaction, never instead of it
    logger: logger === false ? false : logOptions(config.LOG_LEVEL, logger === true ? {} : logger),
    // one line per request, refusals sampled, instead of Fastify's two (http/request-log.ts)
    logController: new LogController({ disableRequestLogging: true }),
    // a generous keep-alive so a proxy in front does not see resets
    keepAliveTimeout: 65_000,
    // close hooks wait for sockets and translations (up to SHUTDOWN_GRACE_SECONDS) to wind down
    pluginTimeout: Math.max(20_000, (config.SHUTDOWN_GRACE_SECONDS + 5) * 1000),
    // the client address behind that many proxies (rate limits and socket caps count per address)
    trustProxy: (_address: string, hop: number) => hop < config.TRUST_PROXY_HOPS,
  });
}

/**
 * The whole server as one Fastify instance: HTTP API, WebSocket gateway and the web app. `server.ts`
 * only listens and shuts down; tests build it here and use `inject` or a real port.
 *
 * One plugin per module, in the order they build on each other: each declares the decorators it adds
 * (what later plugins use) and registers its own routes. The database is migrated before anything else
 * starts; the rate limits come before every route they cover. From rooms on, the order is a message's
 * journey: stored in its room, fanned out by the delivery, translated (with the glossary, and summaries
 * beside it), posted by the message path, spoken in by voice, carried by the gateway's sockets. The
 * lifecycle comes last and winds the journey down from its end (docs/architecture.md).
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, inMemoryDb } = options;
  const clock = options.clock ?? systemClock;
  const app = fastifyFor(config, options.logger);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // the built pages' inline scripts, which the policy admits by their hashes alone
  await app.register(httpPlugin, { config, inlineScripts: inlineScriptSources(options.webRoot) });
  // the stores open here, outside Fastify's plugin timeout: on a loaded machine they may take longer
  const db = await openDatabase(config, inMemoryDb, options.databaseSnapshot);
  await app.register(storePlugin, { db });
  await app.register(busPlugin, await connectBus(config, app.log));
  await app.register(readinessPlugin);
  await app.register(rateLimitsPlugin, { config });
  await app.register(metricsPlugin, {
    enabled: config.METRICS_ENABLED === 'on',
    token: config.METRICS_TOKEN,
  });
  await app.register(authPlugin, {
    config,
    clock,
    botCheck: options.botCheck,
    userRooms: roomsOfUsers,
    storePurchaseAccount: storePurchaseAccount(config),
  });
  // the rooms are told of a deletion through the hub, which the delivery plugin adds later
  const records = playerRecords(async (notices) => {
    for (const { roomId, frame } of notices) await app.xtalkHub.broadcast(roomId, frame);
  });
  await app.register(playersPlugin, { config, clock, records });
  await app.register(aiPlugin, { config, provider: options.provider });
  await app.register(creditsPlugin, { config, clock, meter: options.meter });
  await app.register(paymentsPlugin, { config, clock });
  // a join counts the room's people through the presence and leaves the room it read with the hub, both
  // added later by the delivery plugin
  const roomPeople = async (roomId: string) => (await app.xtalkPresence.members?.(roomId)) ?? 0;
  const roomStarts = {
    openHere: (roomId: string) => app.xtalkHub.holds(roomId),
    expect: (roomId: string) => app.xtalkHub.expectStart(roomId),
  };
  await app.register(roomsPlugin, { config, clock, roomPeople, roomStarts });
  await app.register(deliveryPlugin);
  await app.register(glossaryPlugin, { config, clock });
  await app.register(summaryPlugin, { config, clock });
  await app.register(translationPlugin, { config, clock, store: translationStore(db, clock) });
  await app.register(balanceEventsPlugin, { clock });
  await app.register(messagesPlugin, { config });
  await app.register(voicePlugin, { config, clock });
  await app.register(webPlugin, { root: options.webRoot });
  const { heartbeatMs, departures } = options;
  await app.register(gatewayPlugin, { config, clock, heartbeatMs, departures, inMemoryDb });
  await app.register(lifecyclePlugin, { config, clock });
  return app;
}

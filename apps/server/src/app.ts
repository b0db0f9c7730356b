import Fastify, { type FastifyInstance } from 'fastify';
import { createAiProvider, type AiProvider } from './ai/index.js';
import './app-decorations.js';
import {
  chooseBotCheck,
  createChat,
  createGlossaries,
  createCredits,
  healthRoute,
  socketCaps,
  socketOrigins,
  openStores,
  watchNodes,
  registerAccounts,
  registerPayments,
  startSweeps,
  translationStore,
  createReturners,
} from './app-wiring.js';
import { createAuthenticator } from './auth/authenticate.js';
import { resolveAuthSecret } from './auth/auth-secret.js';
import type { BotCheck } from './auth/botcheck.js';
import { createPlayerLinks } from './auth/player-links.js';
import { authRoutes } from './auth/routes.js';
import { createTokens } from './auth/tokens.js';
import { createUsersRepo } from './auth/users-repo.js';
import { systemClock, type Clock } from './clock.js';
import type { ServerFrame } from '@xtalk/protocol';
import type { Config } from './config.js';
import { startBalanceEvents } from './credits/index.js';
import { registerBodyGuard } from './http/body-guard.js';
import { registerErrorHandler } from './http/error-handler.js';
import { registerRateLimits } from './http/rate-limits.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerMetrics } from './metrics/plugin.js';
import { appSources } from './metrics/probes.js';
import { createMetrics } from './metrics/registry.js';
import { frameLimitSettings } from './realtime/frame-limits.js';
import type { ConnectionDeps } from './realtime/connection-core.js';
import { createGateway } from './realtime/gateway.js';
import { registerDrain } from './lifecycle/drain.js';
import { registerReadiness } from './lifecycle/readiness.js';
import { shareSupersession } from './translation/shared-supersession.js';
import { createLogSampler } from './log-sampler.js';
import { createDepartures } from './realtime/departures.js';
import { createRoomHub } from './realtime/room-hub.js';
import { createRoomHistory, roomHistoryRoutes } from './rooms/history-routes.js';
import { createRoomsRepo } from './rooms/rooms-repo.js';
import { createRoomLog } from './rooms/room-log.js';
import { roomRoutes } from './rooms/routes.js';
import { createSessionHandoffs } from './rooms/session-handoffs.js';
import { createTranslationService, type Meter } from './translation/index.js';
import { glossaryRoutes } from './glossary/index.js';
import { createVoiceHandlers } from './voice/index.js';
import { defaultWebRoot, webRoutes } from './web/static.js';
import { logOptions } from './http/log-options.js';

export interface AppOptions {
  config: Config;
  clock?: Clock;
  /** Replaces the configured bot check (tests). */
  botCheck?: BotCheck;
  /** Keep the database in memory instead of DATA_DIR (tests; ignored when DATABASE_URL is set). */
  inMemoryDb?: boolean;
  webRoot?: string;
  logger?: boolean | object;
  heartbeatMs?: number;
  /** Replaces the credits meter (tests and the bench that measure the pipeline without the ledger). */
  meter?: Meter;
  /** Replaces the configured AI provider (the bench: fake engines of fixed latencies). */
  provider?: AiProvider;
}

const REPLAY_LIMIT = 500;
const MAX_FRAME_BYTES = 2 * 1024 * 1024;
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** A close without a drain: the originals are stored, and a streaming translation is not worth more. */
const TRANSLATION_CLOSE_MS = 3000;

/** Voice input, whole clips and streamed ones (VOICE_STREAMING=off: streamed clips in clip mode). */
function voiceHandlers(
  config: Config,
  deps: Omit<Parameters<typeof createVoiceHandlers>[0], 'broadcast' | 'streaming'> & {
    hub: { broadcast(roomId: string, frame: ServerFrame): Promise<void> };
  },
) {
  return createVoiceHandlers({
    ...deps,
    broadcast: (roomId, frame) => deps.hub.broadcast(roomId, frame),
    streaming: config.VOICE_STREAMING === 'on',
  });
}

/** Which clients are served, and from which version on a chat frame needs a clientId. */
const protocolLines = (config: Config) => ({
  minProtocolVersion: config.MIN_PROTOCOL_VERSION,
  clientIdRequiredFrom: config.CLIENT_ID_REQUIRED_FROM_PROTOCOL,
});

/** The Fastify instance with the server options a node behind a proxy and a drain needs. */
function fastifyFor(config: Config, logger: AppOptions['logger']): FastifyInstance {
  return Fastify({
    // a test's own stream and level go over the redaction, never instead of it
    logger: logger === false ? false : logOptions(config.LOG_LEVEL, logger === true ? {} : logger),
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
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const app = fastifyFor(config, options.logger);
  registerErrorHandler(app);
  registerBodyGuard(app);
  await registerSecurityHeaders(app, config);
  const metrics = createMetrics();
  const { report } = metrics;

  const { db, redis, redisOutage, bus, presence, nodeId } = await openStores(
    config,
    options.inMemoryDb,
    app.log,
  );
  const readiness = registerReadiness(app, { db, bus, redisConfigured: redis !== undefined });
  const secret = resolveAuthSecret(config.AUTH_SECRET, config.DATA_DIR);
  const tokens = createTokens(secret, config.SESSION_TTL_SECONDS, clock);
  const users = createUsersRepo(db);
  const links = createPlayerLinks(db);
  const authenticator = createAuthenticator(tokens, users);
  const botCheck = options.botCheck ?? chooseBotCheck(config, secret, db, clock);
  // Typed in app-decorations.ts; tests reach it as TestServer.db, modules receive what they need instead.
  app.decorate('xtalkDb', db);

  const rooms = createRoomsRepo(db, clock, { editWindowSeconds: config.EDIT_WINDOW_SECONDS });
  const roomLog = createRoomLog(db);
  const hub = createRoomHub(bus, { log: roomLog, logger: app.log, metrics: report });
  const provider = options.provider ?? createAiProvider(config, app.log);
  // Credits: the author of a message pays for its AI work from the ledger.
  const credits = createCredits(config, db, clock, users, app.log, report);
  app.decorate('xtalkLedger', credits.ledger);
  const meter = options.meter ?? credits.meter;
  const glossaries = createGlossaries({ config, db, rooms, users, clock, provider, meter, logger: app.log });
  const translation = createTranslationService({
    config,
    provider,
    output: hub,
    users: hub,
    // speech only for the languages someone in the room listens in (0137)
    listeners: presence,
    store: translationStore(db, clock),
    meter,
    glossary: glossaries.source,
    logger: app.log,
    clock,
    // without a drain (tests, a failed start) a translation still streaming holds the close this long
    options: { closeTimeoutMs: TRANSLATION_CLOSE_MS },
    metrics: report,
  });
  // a correction taken here also stops the old text's work on the node its message was posted on
  const supersession = await shareSupersession(bus, translation, app.log);
  const { chat, fairRooms } = createChat(
    config,
    rooms,
    hub,
    { onMessage: translation.onMessage, onEdited: supersession.onEdited },
    app.log,
  );
  const sampledLog = createLogSampler(app.log, clock);

  // before any route: each route gets its limit when it is added
  await registerRateLimits(app, { config, tokens, redis, redisOutage });
  await registerMetrics(app, { metrics, token: config.METRICS_TOKEN });
  await app.register(authRoutes, { botCheck, tokens, users, authenticator });
  const { oidc } = await registerAccounts(app, { config, db, clock, tokens, users, links, authenticator });
  await registerPayments(app, { config, db, clock, ledger: credits.ledger, users, authenticator });
  await app.register(roomHistoryRoutes, { history: createRoomHistory(db), authenticator });
  // a join's checked token, user and session wait here for the socket it opens next (decision 0138)
  const handoffs = createSessionHandoffs(clock);
  const sessionTtlSeconds = config.SESSION_TTL_SECONDS;
  await app.register(roomRoutes, { rooms, authenticator, sessionTtlSeconds, handoffs });
  await app.register(glossaryRoutes, { ...glossaries.routeDeps, authenticator, broadcast: hub.broadcast });
  const balanceEvents = await startBalanceEvents({
    ledger: credits.ledger,
    bus,
    users: hub,
    isGuest: credits.isGuest,
    onGrown: translation.resume,
    clock,
    logger: app.log,
  });
  healthRoute(app, { db, bus, redis, hub, fairRooms });
  await app.register(webRoutes, { root: options.webRoot ?? defaultWebRoot });
  const { announcer, heartbeat } = watchNodes(config, { redis, nodeId }, hub, clock, app.log);
  const gateway = createGateway(app, {
    authenticator,
    rooms,
    handoffs,
    allowedOrigins: socketOrigins(config),
    heartbeatMs: options.heartbeatMs ?? 30_000,
    maxFrameBytes: MAX_FRAME_BYTES,
    clock,
    logger: app.log,
    caps: socketCaps(config, clock, sampledLog),
    connectionDeps: {
      hub,
      presence,
      announcer,
      departures: createDepartures(config.LEAVE_GRACE_SECONDS * 1000),
      returners: createReturners(config, redis, clock, options.inMemoryDb),
      chat,
      rooms,
      users,
      languages: config.LANGUAGES,
      clock,
      logger: app.log,
      // a joiner's recent window is the hub's shared copy while the room has not moved on (decision 0134)
      log: { ...roomLog, recentWindow: hub.recentWindow ?? roomLog.recentWindow },
      replayLimit: REPLAY_LIMIT,
      balanceFrame: balanceFrameOf(credits.ledger, clock),
      resumeMaxEvents: config.RESUME_MAX_EVENTS,
      editWindowSeconds: config.EDIT_WINDOW_SECONDS,
      ...protocolLines(config),
      maxBufferedBytes: MAX_BUFFERED_BYTES,
      frameLimits: { settings: frameLimitSettings(config), log: sampledLog },
      onSummarize: glossaries.summaries.summarize,
      metrics: report,
      ...voiceHandlers(config, { chat, translation, provider, hub, logger: app.log, clock, metrics: report }),
    },
  });
  metrics.watch(appSources({ gateway, hub, bus, db }));

  const drain = registerDrain(app, { readiness, gateway, config });
  // Order matters: sockets finish storing what they received before anything they need is closed.
  app.addHook('preClose', async () => {
    await gateway.close();
    await supersession.close();
    await translation.close(drain.graceLeftMs(TRANSLATION_CLOSE_MS));
    glossaries.summaries.close();
    credits.meter.close();
    await balanceEvents.close();
    await provider.close?.();
  });
  // local models load in the background from the start, not on the first message
  app.addHook('onReady', async () => {
    // the identity provider is discovered in the background; sign-in retries if it is unreachable now
    oidc?.warmUp();
    provider.warmUp?.().catch((error: unknown) => app.log.warn({ err: error }, 'AI engine warm-up failed'));
  });
  const sweeper = startSweeps(config, db, clock, app.log);
  app.addHook('onClose', async () => {
    await sweeper.stop();
    await heartbeat?.stop();
    await bus.close();
    await redis?.quit().catch(() => undefined);
    await db.close();
  });
  return app;
}

/** Signed-in users see their balance from the start; guests see none (spec section 6). */
function balanceFrameOf(
  ledger: { balance(userId: string): Promise<{ free: number; premium: number }> },
  clock: Clock,
): NonNullable<ConnectionDeps['balanceFrame']> {
  return async (user) =>
    user.provider === 'guest'
      ? undefined
      : {
          type: 'system',
          message: 'BALANCE',
          timestamp: clock.now(),
          balance: await ledger.balance(user.id),
        };
}

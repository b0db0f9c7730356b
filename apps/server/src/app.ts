import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { ApiPath } from '@xtalk/protocol';
import { createAiProvider } from './ai/index.js';
import './app-decorations.js';
import { accountRoutes } from './auth/account-routes.js';
import { createAuthenticator } from './auth/authenticate.js';
import { deleteExpiredAuthRows } from './auth/expired-rows.js';
import { resolveAuthSecret } from './auth/auth-secret.js';
import { createOidc } from './auth/oidc.js';
import { playerAccounts } from './auth/player-accounts.js';
import { createPlayerLinks } from './auth/player-links.js';
import { createSignInStore } from './auth/sign-in-store.js';
import { createAltchaBotCheck, createTurnstileBotCheck, type BotCheck } from './auth/botcheck.js';
import { authRoutes } from './auth/routes.js';
import { createTokens } from './auth/tokens.js';
import { createUsersRepo } from './auth/users-repo.js';
import { createMemoryBus, type Bus } from './bus/bus.js';
import { createRedisBus } from './bus/redis-bus.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import {
  createCreditMeter,
  createGuestCheck,
  createLedger,
  dailyAllowance,
  startBalanceEvents,
} from './credits/index.js';
import { paymentsRoutes } from './payments/index.js';
import { registerBodyGuard } from './http/body-guard.js';
import { registerErrorHandler } from './http/error-handler.js';
import { registerRateLimits } from './http/rate-limits.js';
import { frameLimitSettings } from './realtime/frame-limits.js';
import { createGateway } from './realtime/gateway.js';
import { createLogSampler } from './realtime/log-sampler.js';
import { createMemoryPresence, createRedisPresence } from './realtime/presence.js';
import { createRoomHub } from './realtime/room-hub.js';
import { createSocketCaps } from './realtime/socket-caps.js';
import { playerRoutes } from './players/routes.js';
import { paymentServiceRoutes } from './payments/service.js';
import { createRoomHistory, roomHistoryRoutes } from './rooms/history-routes.js';
import { createChatService } from './rooms/chat-service.js';
import { deleteExpiredSessions } from './rooms/expired-rows.js';
import { createFairRooms, withFairRooms } from './rooms/fair-rooms.js';
import { deleteIdleGuests } from './auth/idle-guests.js';
import { createRoomsRepo } from './rooms/rooms-repo.js';
import { createRoomLog } from './rooms/room-log.js';
import { roomRoutes } from './rooms/routes.js';
import { openDb, type Db } from './store/db.js';
import { createTranslationService, type Meter } from './translation/index.js';
import { createVoiceInput } from './voice/index.js';
import { startExpirySweeper } from './store/expired-rows.js';
import { migrate } from './store/migrations.js';
import { defaultWebRoot, webRoutes } from './web/static.js';

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
}

const REPLAY_LIMIT = 500;
const EXPIRY_SWEEP_MS = 10 * 60_000;
const MAX_FRAME_BYTES = 2 * 1024 * 1024;
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/**
 * The whole server as one Fastify instance: HTTP API, WebSocket gateway and the web app. `server.ts`
 * only listens and shuts down; tests build it here and use `inject` or a real port.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    logger: options.logger ?? { level: config.LOG_LEVEL },
    // a generous keep-alive so a proxy in front does not see resets
    keepAliveTimeout: 65_000,
    // close hooks wait for sockets and translations to wind down (bounded inside each)
    pluginTimeout: 20_000,
    // the client address behind that many proxies (rate limits and socket caps count per address)
    trustProxy: (_address: string, hop: number) => hop < config.TRUST_PROXY_HOPS,
  });
  registerErrorHandler(app);
  registerBodyGuard(app);

  const db: Db = await openDb({
    databaseUrl: config.DATABASE_URL,
    dataDir: options.inMemoryDb ? undefined : config.DATA_DIR,
  });
  await migrate(db);
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 3 }) : undefined;
  // while Redis is away the client reconnects by itself; the callers see their command fail
  redis?.on('error', (error) => app.log.debug({ err: error }, 'redis unavailable'));
  const bus: Bus = config.REDIS_URL ? await createRedisBus(config.REDIS_URL) : createMemoryBus();
  const presence = redis ? createRedisPresence(redis) : createMemoryPresence();

  const secret = resolveAuthSecret(config.AUTH_SECRET, config.DATA_DIR);
  const tokens = createTokens(secret, config.SESSION_TTL_SECONDS, clock);
  const users = createUsersRepo(db);
  const links = createPlayerLinks(db);
  const authenticator = createAuthenticator(tokens, users);
  const botCheck =
    options.botCheck ??
    (config.TURNSTILE_SITE_KEY && config.TURNSTILE_SECRET_KEY
      ? createTurnstileBotCheck({
          siteKey: config.TURNSTILE_SITE_KEY,
          secretKey: config.TURNSTILE_SECRET_KEY,
          verifyUrl: config.TURNSTILE_VERIFY_URL,
          db,
          clock,
        })
      : createAltchaBotCheck({ secret, cost: config.ALTCHA_COST, db, clock }));

  // Typed in app-decorations.ts; tests reach it as TestServer.db, modules receive what they need instead.
  app.decorate('xtalkDb', db);

  const rooms = createRoomsRepo(db, clock);
  const roomLog = createRoomLog(db);
  const hub = createRoomHub(bus, { log: roomLog, logger: app.log });
  const provider = createAiProvider(config, app.log);
  // Credits: the author of a message pays for its AI work from the ledger.
  const isGuest = createGuestCheck(users, clock);
  const ledger = createLedger({
    db,
    clock,
    dailyAllowance: dailyAllowance(isGuest, {
      accountDaily: config.CREDITS_DAILY_FREE,
      guestDaily: config.CREDITS_GUEST_DAILY,
    }),
  });
  app.decorate('xtalkLedger', ledger);
  const creditMeter = createCreditMeter({ ledger, isGuest, clock, logger: app.log });
  const translation = createTranslationService({
    config,
    provider,
    output: hub,
    users: hub,
    store: rooms,
    meter: options.meter ?? creditMeter,
    logger: app.log,
    clock,
    // On shutdown the originals are already stored; a translation still streaming is not worth holding
    // the restart for longer than this.
    options: { closeTimeoutMs: 3000 },
  });
  // rooms take turns to store, so one room's flood never delays another room's messages
  const fairRooms = createFairRooms({
    concurrency: config.STORE_CONCURRENCY,
    maxQueuedPerRoom: config.ROOM_QUEUE_MAX,
  });
  const chat = withFairRooms(
    createChatService(rooms, { broadcast: hub.broadcast, onStored: translation.onMessage }, app.log),
    fairRooms,
  );
  const sampledLog = createLogSampler(app.log, clock);

  // before any route: each route gets its limit when it is added
  await registerRateLimits(app, { config, tokens, redis });
  await app.register(authRoutes, { botCheck, tokens, users, authenticator });
  const signInStore = createSignInStore(db, clock);
  const oidc = config.GOOGLE_CLIENT_ID
    ? createOidc(
        {
          issuer: config.OIDC_ISSUER,
          clientId: config.GOOGLE_CLIENT_ID,
          clientSecret: config.GOOGLE_CLIENT_SECRET,
        },
        signInStore,
        app.log,
      )
    : undefined;
  await app.register(accountRoutes, {
    oidc,
    links,
    store: signInStore,
    tokens,
    users,
    authenticator,
    publicUrl: config.PUBLIC_URL,
    codeTtlSeconds: config.AUTH_CODE_TTL_SECONDS,
  });
  await app.register(playerRoutes, { users, links, authenticator, adminKey: config.ADMIN_API_KEY });
  await app.register(playerAccounts, {
    config,
    db,
    clock,
    tokens,
    users,
    links,
    authenticator,
    store: signInStore,
  });
  await app.register(paymentServiceRoutes, { config, db, clock, ledger, users });
  await app.register(roomHistoryRoutes, { history: createRoomHistory(db), authenticator });
  await app.register(roomRoutes, { rooms, authenticator, sessionTtlSeconds: config.SESSION_TTL_SECONDS });
  await app.register(paymentsRoutes, {
    db,
    clock,
    ledger,
    authenticator,
    publicUrl: config.PUBLIC_URL,
    stripe:
      config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: config.STRIPE_SECRET_KEY,
            webhookSecret: config.STRIPE_WEBHOOK_SECRET,
            apiUrl: config.STRIPE_API_URL,
          }
        : undefined,
  });
  const balanceEvents = await startBalanceEvents({
    ledger,
    bus,
    users: hub,
    isGuest,
    onGrown: translation.resume,
    clock,
    logger: app.log,
  });
  app.get(ApiPath.health, async () => {
    // A node without its bus still serves its own rooms (from the log); it says so instead of "ok".
    const busUp = bus.isConnected?.() ?? true;
    return {
      ok: true,
      status: busUp ? 'ok' : 'degraded',
      db: db.kind,
      bus: redis ? 'redis' : 'memory',
      busConnected: busUp,
      ...hub.stats(),
      ...fairRooms.stats(),
    };
  });
  await app.register(webRoutes, { root: options.webRoot ?? defaultWebRoot });

  const gateway = createGateway(app, {
    authenticator,
    rooms,
    allowedOrigins: [
      ...(config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : []),
      ...config.ALLOWED_ORIGINS,
    ],
    heartbeatMs: options.heartbeatMs ?? 30_000,
    maxFrameBytes: MAX_FRAME_BYTES,
    clock,
    logger: app.log,
    caps: {
      sockets: createSocketCaps(
        {
          perIp: config.MAX_SOCKETS_PER_IP,
          perUser: config.MAX_SOCKETS_PER_USER,
          floodCooldownMs: config.WS_FLOOD_COOLDOWN_SECONDS * 1000,
        },
        clock,
      ),
      trustProxyHops: config.TRUST_PROXY_HOPS,
      log: sampledLog,
    },
    connectionDeps: {
      hub,
      presence,
      chat,
      rooms,
      users,
      languages: config.LANGUAGES,
      clock,
      logger: app.log,
      log: roomLog,
      replayLimit: REPLAY_LIMIT,
      // signed-in users see their balance from the start; guests see none (spec section 6)
      balanceFrame: async (user) =>
        user.provider === 'guest'
          ? undefined
          : {
              type: 'system',
              message: 'BALANCE',
              timestamp: clock.now(),
              balance: await ledger.balance(user.id),
            },
      resumeMaxEvents: config.RESUME_MAX_EVENTS,
      minProtocolVersion: config.MIN_PROTOCOL_VERSION,
      maxBufferedBytes: MAX_BUFFERED_BYTES,
      frameLimits: { settings: frameLimitSettings(config), log: sampledLog },
      onAudio: createVoiceInput({ chat, translation, logger: app.log, clock }),
    },
  });

  // Order matters: sockets finish storing what they received before anything they need is closed.
  app.addHook('preClose', async () => {
    await gateway.close();
    await translation.close();
    creditMeter.close();
    await balanceEvents.close();
    await provider.close?.();
  });
  // local models load in the background from the start, not on the first message
  app.addHook('onReady', async () => {
    // the identity provider is discovered in the background; sign-in retries if it is unreachable now
    oidc?.warmUp();
    provider.warmUp?.().catch((error: unknown) => app.log.warn({ err: error }, 'AI engine warm-up failed'));
  });
  const expirySweeps = [
    (now: Date) => deleteExpiredAuthRows(db, now),
    (now: Date) => deleteExpiredSessions(db, now),
    // guests idle past the retention go with their links, memberships and sessions (issue 16)
    async (now: Date) =>
      void (await deleteIdleGuests(db, new Date(now.getTime() - config.GUEST_RETENTION_SECONDS * 1000))),
  ];
  const sweeper = startExpirySweeper(expirySweeps, clock, EXPIRY_SWEEP_MS, (error) =>
    app.log.warn({ err: error }, 'removing expired sessions, codes or idle guests failed'),
  );
  app.addHook('onClose', async () => {
    await sweeper.stop();
    await bus.close();
    await redis?.quit().catch(() => undefined);
    await db.close();
  });
  return app;
}

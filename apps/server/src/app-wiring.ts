import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiPath } from '@xtalk/protocol';
import { accountRoutes } from './auth/account-routes.js';
import type { Authenticator } from './auth/authenticate.js';
import { createAltchaBotCheck, createTurnstileBotCheck, type BotCheck } from './auth/botcheck.js';
import { deleteExpiredAuthRows } from './auth/expired-rows.js';
import { deleteIdleGuests } from './auth/idle-guests.js';
import { createOidc } from './auth/oidc.js';
import { playerAccounts } from './auth/player-accounts.js';
import type { PlayerLinks } from './auth/player-links.js';
import { createSignInStore } from './auth/sign-in-store.js';
import type { Tokens } from './auth/tokens.js';
import type { UsersRepo } from './auth/users-repo.js';
import { createMemoryBus, type Bus } from './bus/bus.js';
import { createRedisBus } from './bus/redis-bus.js';
import { redisOptions, watchRedis } from './bus/redis-outage.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import { createCreditMeter, createGuestCheck, createLedger, dailyAllowance } from './credits/index.js';
import type { Ledger } from './credits/ledger.js';
import type { MetricsReport } from './metrics/report.js';
import { paymentsRoutes } from './payments/index.js';
import { paymentServiceRoutes } from './payments/service.js';
import { playerRoutes } from './players/routes.js';
import { createMemoryPresence, createRedisPresence } from './realtime/presence.js';
import { withMemoryFallback } from './realtime/presence-fallback.js';
import { createFileReturners, createRedisReturners, type Returners } from './realtime/returners.js';
import { createSocketCaps } from './realtime/socket-caps.js';
import { createPresenceAnnouncer, type PresenceAnnouncer } from './realtime/presence-announcer.js';
import { nodeShares, startNodeHeartbeat, type NodeHeartbeat } from './realtime/presence-nodes.js';
import type { LogSampler } from './log-sampler.js';
import type { RoomHub } from './realtime/room-hub.js';
import type { UpgradeCaps } from './realtime/upgrade-refusal.js';
import { createChatService } from './rooms/chat-service.js';
import { createFairRooms, withFairRooms } from './rooms/fair-rooms.js';
import type { RoomsRepo } from './rooms/rooms-repo.js';
import { createMessageChanges } from './rooms/message-changes.js';
import { createMessagesRepo } from './rooms/messages-repo.js';
import type { TranslationStore } from './translation/ports.js';
import type { TranslationService } from './translation/service.js';
import { deleteExpiredSessions, trimRoomChanges } from './rooms/expired-rows.js';
import type { FairRooms } from './rooms/fair-rooms.js';
import { openDb, type Db } from './store/db.js';
import { startExpirySweeper } from './store/expired-rows.js';
import { migrate } from './store/migrations.js';
import { displayNameOf } from './auth/users-repo.js';
import { createGlossaryRepo, createGlossarySource, MEMBER_NAMES_LIMIT } from './glossary/index.js';
import { createSummaries } from './summary/index.js';
import type { AiProvider } from './ai/provider.js';
import type { Meter } from './translation/ports.js';

/*
 * The steps `buildApp` (app.ts) composes, one idea each, so that the composition reads as a list. Each
 * takes what it needs explicitly; none keeps state of its own.
 */

const EXPIRY_SWEEP_MS = 10 * 60_000;

/** The database (migrated) and, with REDIS_URL, Redis for the bus and presence; in-process otherwise. */
export async function openStores(config: Config, inMemoryDb: boolean | undefined, log: FastifyBaseLogger) {
  const db: Db = await openDb({
    databaseUrl: config.DATABASE_URL,
    dataDir: inMemoryDb ? undefined : config.DATA_DIR,
  });
  await migrate(db);
  // ioredis is loaded only with REDIS_URL (decision 0116)
  const redis: Redis | undefined = config.REDIS_URL
    ? new (await import('ioredis')).Redis(config.REDIS_URL, redisOptions(config.REDIS_COMMAND_TIMEOUT_MS))
    : undefined;
  // while Redis is away the client reconnects by itself; its users go on without it (redis-outage.ts)
  redis?.on('error', (error) => log.debug({ err: error }, 'redis unavailable'));
  const redisOutage = redis ? watchRedis(redis, log) : undefined;
  const [bus] = await Promise.all([
    config.REDIS_URL
      ? createRedisBus(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS)
      : Promise.resolve(createMemoryBus()),
    redis?.connect(),
  ]);
  // this process's share of the shared presence counts, taken back out should it die (presence-nodes.ts)
  const nodeId = randomUUID();
  const presence =
    redis && redisOutage
      ? withMemoryFallback(createRedisPresence(redis, nodeShares(nodeId)), redisOutage)
      : createMemoryPresence();
  return { db, redis, redisOutage, bus, presence, nodeId };
}

/**
 * The room's JOIN/LEAVE announcer and, with Redis, this node's heartbeat, which announces the LEAVEs of
 * people whose last connection was on a node that stopped beating (presence-nodes.ts).
 */
export function watchNodes(
  config: Config,
  stores: { redis: Redis | undefined; nodeId: string },
  hub: RoomHub,
  clock: Clock,
  log: FastifyBaseLogger,
): { announcer: PresenceAnnouncer; heartbeat: NodeHeartbeat | undefined } {
  const announcer = createPresenceAnnouncer(hub, clock);
  if (!stores.redis) return { announcer, heartbeat: undefined };
  const heartbeat = startNodeHeartbeat({
    redis: stores.redis,
    nodeId: stores.nodeId,
    ttlMs: config.NODE_TTL_SECONDS * 1000,
    left: (roomId, person) => void announcer.announce(roomId, 'LEAVE', person),
    warn: (error) => log.warn({ err: error }, 'node heartbeat failed'),
  });
  return { announcer, heartbeat };
}

/**
 * The one path of a message, typed or spoken, and of its corrections: stored, fanned out, translated.
 * Rooms take turns to store, so one room's flood never delays another room's messages.
 */
export function createChat(
  config: Config,
  rooms: RoomsRepo,
  hub: RoomHub,
  translation: Pick<TranslationService, 'onMessage' | 'onEdited'>,
  log: FastifyBaseLogger,
) {
  const fairRooms = createFairRooms({
    concurrency: config.STORE_CONCURRENCY,
    maxQueuedPerRoom: config.ROOM_QUEUE_MAX,
  });
  const outlets = {
    broadcast: hub.broadcast,
    onStored: translation.onMessage,
    onEdited: translation.onEdited,
  };
  const chat = createChatService(rooms, outlets, log);
  const posting = withFairRooms(chat, fairRooms, config.ROOM_QUEUE_MAX);
  // a room's waiting posts wait as one batch in the fair queue: health counts the posts
  const stats = () => ({
    messagesStoring: fairRooms.stats().messagesStoring,
    messagesWaiting: posting.postsWaiting(),
  });
  return { chat: posting, fairRooms: { ...fairRooms, stats } };
}

/** Turnstile when both of its keys are set, else the self-hosted ALTCHA proof-of-work. */
export function chooseBotCheck(config: Config, secret: string, db: Db, clock: Clock): BotCheck {
  return config.TURNSTILE_SITE_KEY && config.TURNSTILE_SECRET_KEY
    ? createTurnstileBotCheck({
        siteKey: config.TURNSTILE_SITE_KEY,
        secretKey: config.TURNSTILE_SECRET_KEY,
        verifyUrl: config.TURNSTILE_VERIFY_URL,
        db,
        clock,
      })
    : createAltchaBotCheck({ secret, cost: config.ALTCHA_COST, db, clock });
}

/**
 * What the translation service stores and reads, in the database's background lane (decision 0117): a
 * translation's or note's write and the context read never hold up a chat insert on PGlite.
 */
export function translationStore(db: Db, clock: Clock): TranslationStore {
  const background: Db = { ...db, ...db.background };
  const { recentMessages } = createMessagesRepo(background, clock);
  const { saveTranslation, saveNote, saveTranslationFailure } = createMessageChanges(background);
  return { recentMessages, saveTranslation, saveNote, saveTranslationFailure };
}

/** Credits: the ledger with its daily allowances, and the meter that makes authors pay for AI work. */
export function createCredits(
  config: Config,
  db: Db,
  clock: Clock,
  users: UsersRepo,
  log: FastifyBaseLogger,
  metrics?: MetricsReport,
) {
  const isGuest = createGuestCheck(users, clock);
  const ledger = createLedger({
    db,
    clock,
    dailyAllowance: dailyAllowance(isGuest, {
      accountDaily: config.CREDITS_DAILY_FREE,
      guestDaily: config.CREDITS_GUEST_DAILY,
    }),
  });
  const meter = createCreditMeter({ ledger, isGuest, clock, logger: log, metrics });
  return { isGuest, ledger, meter };
}

export interface AccountDeps {
  config: Config;
  db: Db;
  clock: Clock;
  tokens: Tokens;
  users: UsersRepo;
  links: PlayerLinks;
  authenticator: Authenticator;
}

/** Sign-in (Google/OIDC when configured, email, wallets, Telegram, tokens) and the player API. */
export async function registerAccounts(app: FastifyInstance, deps: AccountDeps) {
  const { config, db, clock, tokens, users, links, authenticator } = deps;
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
    mailConfigured: config.SMTP_URL !== undefined,
    links,
    store: signInStore,
    tokens,
    users,
    authenticator,
    publicUrl: config.PUBLIC_URL,
    codeTtlSeconds: config.AUTH_CODE_TTL_SECONDS,
  });
  await app.register(playerRoutes, { users, links, authenticator, adminKey: config.ADMIN_API_KEY });
  await app.register(playerAccounts, { ...deps, store: signInStore });
  return { oidc };
}

/** Buying credits (wallet, checkout, Stripe) and the payment service's server and admin calls. */
export async function registerPayments(
  app: FastifyInstance,
  deps: {
    config: Config;
    db: Db;
    clock: Clock;
    ledger: Ledger;
    users: UsersRepo;
    authenticator: Authenticator;
  },
) {
  const { config, db, clock, ledger, users, authenticator } = deps;
  await app.register(paymentServiceRoutes, { config, db, clock, ledger, users });
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
}

/** Caps on open sockets per address, per user and per session, and how refusals are logged. */
export function socketCaps(config: Config, clock: Clock, log: LogSampler): UpgradeCaps {
  return {
    sockets: createSocketCaps(
      {
        perIp: config.MAX_SOCKETS_PER_IP,
        perUser: config.MAX_SOCKETS_PER_USER,
        floodCooldownMs: config.WS_FLOOD_COOLDOWN_SECONDS * 1000,
      },
      clock,
    ),
    trustProxyHops: config.TRUST_PROXY_HOPS,
    log,
  };
}

/** Browser origins allowed to open a socket: PUBLIC_URL's and ALLOWED_ORIGINS (none: same origin only). */
export function socketOrigins(config: Config): string[] {
  return [...(config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : []), ...config.ALLOWED_ORIGINS];
}

/**
 * GET /api/health: a node without its bus still serves its own rooms (from the log) and says so; a node
 * that lost its embedded database serves nothing, answers 503 with the reason, and stops (server.ts).
 */
export function healthRoute(
  app: FastifyInstance,
  deps: { db: Db; bus: Bus; redis: Redis | undefined; hub: RoomHub; fairRooms: FairRooms },
) {
  const { db, bus, redis, hub, fairRooms } = deps;
  let dbLost: Error | undefined;
  void db.lost?.then((error) => (dbLost = error));
  app.get(ApiPath.health, async (_request, reply) => {
    if (dbLost)
      return reply.code(503).send({ ok: false, status: 'down', db: db.kind, error: dbLost.message });
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
}

/** Expired sessions and codes, and guests idle past the retention, removed in the background. */
export function startSweeps(config: Config, db: Db, clock: Clock, log: FastifyBaseLogger) {
  const retentionMs = config.GUEST_RETENTION_SECONDS * 1000;
  return startExpirySweeper(
    [
      (now: Date) => deleteExpiredAuthRows(db, now),
      (now: Date) => deleteExpiredSessions(db, now),
      // guests go with their links, memberships and sessions; their messages stay (issue 16)
      async (now: Date) => void (await deleteIdleGuests(db, new Date(now.getTime() - retentionMs))),
      // the resume log past what a resume may replay (issue 16's RESUME_MAX_EVENTS)
      () => trimRoomChanges(db, config.RESUME_MAX_EVENTS),
    ],
    clock,
    EXPIRY_SWEEP_MS,
    (error) => log.warn({ err: error }, 'removing expired sessions, codes or idle guests failed'),
  );
}

/** Who a restart sent away (0161): in Redis when nodes share rooms, else in DATA_DIR (none in memory). */
export function createReturners(
  config: Config,
  redis: Redis | undefined,
  clock: Clock,
  inMemoryDb: boolean | undefined,
): Returners | undefined {
  const graceMs = config.LEAVE_GRACE_SECONDS * 1000;
  if (redis) return createRedisReturners(redis, graceMs, clock);
  if (inMemoryDb) return undefined;
  return createFileReturners(join(config.DATA_DIR, 'presence-at-shutdown.json'), graceMs, clock);
}

/**
 * Room glossaries and "Catch me up": the store, the view the translation service and summaries read per
 * message (the entries, and the members' display names, which are never translated), and the summaries.
 */
export function createGlossaries(deps: {
  config: Config;
  db: Db;
  rooms: RoomsRepo;
  users: UsersRepo;
  clock: Clock;
  provider: AiProvider;
  meter: Meter;
  logger: FastifyBaseLogger;
}) {
  const { config, db, rooms, users, clock, logger } = deps;
  const source = createGlossarySource({
    repo: createGlossaryRepo({ ...db, ...db.background }),
    clock,
    async memberNames(roomId) {
      const members = await users.findByIds(await rooms.memberIds(roomId, MEMBER_NAMES_LIMIT));
      return members.map(displayNameOf);
    },
  });
  const summaries = createSummaries({
    provider: deps.provider,
    meter: deps.meter,
    messages: rooms,
    glossary: source,
    languages: config.LANGUAGES,
    clock,
    logger,
  });
  const routeDeps = { repo: createGlossaryRepo(db), rooms, languages: config.LANGUAGES };
  return { source, summaries, routeDeps };
}

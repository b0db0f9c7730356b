import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiPath, NEW_ROOM } from '@xtalk/protocol';
import { bearerTokenOf } from '../accounts/index.js';
import type { Tokens } from '../accounts/index.js';
import type { Config } from '../config.js';
import type { RedisOutage } from '../bus/index.js';
import { HttpError } from '../http-errors.js';
import { fallbackStore } from './rate-limit-store.js';

/*
 * HTTP rate limits (docs/decisions/0070-limits-on-every-door.md). Counted by @fastify/rate-limit's store:
 * in memory on one node, in Redis when REDIS_URL is set so every node counts together (in memory while
 * Redis is away: rate-limit-store.ts). Windows are one minute. A limited request gets 429, the usual JSON error body and `retry-after` (seconds).
 *
 * Every route gets a policy from ROUTE_POLICIES by its path (so a route added later under /api/ is
 * limited as `api` without doing anything), or names one itself:
 *   app.post('/api/wallet/purchase', { config: { limit: 'signIn' } }, handler)   // stricter
 *   app.post('/api/hooks/stripe', { config: { limit: false } }, handler)          // not limited here
 */

export type LimitPolicy = 'botcheck' | 'guest' | 'signIn' | 'api';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The rate-limit policy of this route; `false` for none. Default: by path (ROUTE_POLICIES). */
    limit?: LimitPolicy | false;
  }
}

/** First match wins: [method or '*', path or prefix ending in '/' or '*', policy]. */
const ROUTE_POLICIES: [string, string, LimitPolicy | false][] = [
  ['GET', ApiPath.health, false],
  ['GET', ApiPath.botcheck, 'botcheck'],
  ['POST', ApiPath.guest, 'guest'],
  // read on every page load, like the web app itself
  ['GET', ApiPath.authConfig, 'api'],
  // sign-in of every kind: Google/OIDC now, e-mail and wallet sign-ins later, the code exchange
  ['*', '/auth/', 'signIn'],
  ['*', '/api/auth/', 'signIn'],
  ['*', ApiPath.join, 'api'],
  ['*', ApiPath.users, 'api'],
  ['*', '/api/', 'api'],
];

export function policyOf(method: string, url: string): LimitPolicy | false {
  for (const [policyMethod, path, policy] of ROUTE_POLICIES) {
    if (policyMethod !== '*' && policyMethod !== method) continue;
    if (path.endsWith('/') ? url.startsWith(path) : url === path) return policy;
  }
  return false;
}

const WINDOW_MS = 60_000;

export interface RateLimitDeps {
  config: Config;
  tokens: Pick<Tokens, 'verify'>;
  /** Shared counters across nodes; without it, counted in this process. */
  redis?: Redis;
  /** Where the counters go on while Redis is away (in this node's memory). */
  redisOutage?: RedisOutage;
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * Registers the limits. Call before any route is registered: routes get their hook when they are added.
 */
export async function registerRateLimits(app: FastifyInstance, deps: RateLimitDeps): Promise<void> {
  const { config } = deps;
  await app.register(fastifyRateLimit, {
    global: false,
    ...(deps.redis && deps.redisOutage
      ? { store: fallbackStore(deps.redis, deps.redisOutage, 'xtalk:rate:') }
      : {}),
    // a counter that cannot be read does not turn a request into an error
    skipOnError: true,
  });
  const userIds = new WeakMap<FastifyRequest, string>();
  const limiter = (name: string, max: number, by: 'ip' | 'user'): Limiter =>
    app.createRateLimit({
      max,
      timeWindow: WINDOW_MS,
      keyGenerator: (request) => `${name}:${by}:${by === 'ip' ? request.ip : userIds.get(request)}`,
    });

  const perIp: Record<LimitPolicy, Limiter> = {
    botcheck: limiter('botcheck', config.RATE_LIMIT_BOTCHECK_PER_MINUTE, 'ip'),
    guest: limiter('guest', config.GUESTS_PER_MINUTE_PER_IP, 'ip'),
    signIn: limiter('sign-in', config.RATE_LIMIT_SIGN_IN_PER_MINUTE, 'ip'),
    api: limiter('api', config.RATE_LIMIT_API_PER_MINUTE_PER_IP, 'ip'),
  };
  const apiPerUser = limiter('api', config.RATE_LIMIT_API_PER_MINUTE_PER_USER, 'user');
  // each join makes a socket session: a reconnect loop is bounded here, before it reaches the sockets
  const joinsPerUser = limiter('join', config.ROOM_JOINS_PER_MINUTE_PER_USER, 'user');
  const lookupMisses = {
    user: limiter('room-miss', config.ROOM_LOOKUP_MISSES_PER_MINUTE, 'user'),
    ip: limiter('room-miss', config.ROOM_LOOKUP_MISSES_PER_MINUTE_PER_IP, 'ip'),
  };

  async function checkPolicy(policy: LimitPolicy, request: FastifyRequest, reply: FastifyReply) {
    await take(perIp[policy], request, reply, policy === 'guest' ? 'guest sign-ins from here' : 'requests');
    if (policy !== 'api') return;
    const userId = await userOf(deps.tokens, request);
    if (!userId) return;
    userIds.set(request, userId);
    await take(apiPerUser, request, reply, 'requests');
  }

  async function checkJoin(request: FastifyRequest, reply: FastifyReply) {
    if (userIds.has(request)) await take(joinsPerUser, request, reply, 'room joins');
  }

  /**
   * Unknown room codes: a 404 from POST /xtalk counts, per user and per address. At the user's limit their
   * lookups are refused before they run (a hit must not be found by guessing on). The address's much higher
   * limit refuses only people who missed themselves: many people share an address behind a NAT, and one
   * guesser among them must not keep the others out of their rooms (decision 0148). Creating a room
   * looks nothing up.
   */
  async function checkLookups(request: FastifyRequest, reply: FastifyReply) {
    if (createsRoom(request.body)) return;
    if (userIds.has(request)) {
      const byUser = await lookupMisses.user(request, { increment: false });
      if (byUser.isAllowed) return;
      if (isSpent(byUser)) refuseLookups(reply, byUser.ttlInSeconds);
      if (byUser.remaining >= byUser.max) return; // no miss of their own in this window
    }
    const byIp = await lookupMisses.ip(request, { increment: false });
    if (!byIp.isAllowed && isSpent(byIp)) refuseLookups(reply, byIp.ttlInSeconds);
  }

  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const method = String(methods[0]).toUpperCase();
    const policy = route.config?.limit ?? policyOf(method === 'HEAD' ? 'GET' : method, route.url ?? '');
    if (!policy) return;
    const isJoin = route.url === ApiPath.join && methods.includes('POST');
    const onRequest = async (request: FastifyRequest, reply: FastifyReply) => {
      await checkPolicy(policy, request, reply);
      if (isJoin) await checkJoin(request, reply);
    };
    route.onRequest = [...toArray(route.onRequest), onRequest] as RouteOptions['onRequest'];
    if (!isJoin) return;
    // after the body is read: whether the join creates a room or looks one up
    route.preHandler = [...toArray(route.preHandler), checkLookups] as RouteOptions['preHandler'];
    const onResponse = async (request: FastifyRequest, reply: FastifyReply) => {
      if (reply.statusCode !== 404) return;
      await lookupMisses.ip(request);
      if (userIds.has(request)) await lookupMisses.user(request);
    };
    route.onResponse = [...toArray(route.onResponse), onResponse] as RouteOptions['onResponse'];
  });
}

/** The user of a valid bearer token; a missing or bad token is counted by IP only (the route says 401). */
async function userOf(tokens: RateLimitDeps['tokens'], request: FastifyRequest): Promise<string | undefined> {
  const token = bearerTokenOf(request);
  if (!token) return undefined;
  try {
    return (await tokens.verify(token)).userId;
  } catch {
    return undefined;
  }
}

/** Counts the request against `limit`; over it, the answer is a 429 that says what was too many. */
async function take(limit: Limiter, request: FastifyRequest, reply: FastifyReply, what: string) {
  const result = await limit(request);
  if (result.isAllowed || !result.isExceeded) return;
  refuse(reply, result.ttlInSeconds, `Too many ${what}; try again in ${result.ttlInSeconds} s.`);
}

type LimitState = Extract<Awaited<ReturnType<Limiter>>, { isAllowed: false }>;

/** A limit read without counting (`increment: false`) that has nothing left in its window. */
const isSpent = (state: LimitState) => state.remaining <= 0 && state.ttlInSeconds > 0;

function refuseLookups(reply: FastifyReply, retryAfterSeconds: number): never {
  refuse(reply, retryAfterSeconds, `Too many unknown room codes; try again in ${retryAfterSeconds} s.`);
}

/** A join that creates a room (the body's roomId null or NEW_ROOM) rather than looking one up. */
function createsRoom(body: unknown): boolean {
  const roomId = (body as { roomId?: unknown } | undefined)?.roomId;
  return roomId === null || roomId === NEW_ROOM;
}

function refuse(reply: FastifyReply, retryAfterSeconds: number, message: string): never {
  reply.header('retry-after', String(Math.max(1, retryAfterSeconds)));
  throw new HttpError(429, message);
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { LogSampler } from '../log-sampler.js';
import type { ConnectionDeps } from './connection-ports.js';
import { createDepartures, type Departures } from '../delivery/index.js';
import { createPresenceAnnouncer } from '../delivery/index.js';
import type { Presence } from '../delivery/index.js';
import { startNodeHeartbeat, type NodeHeartbeat } from '../delivery/index.js';
import { createFileReturners, createRedisReturners, type Returners } from '../delivery/index.js';
import type { RoomHub } from '../delivery/index.js';
import { createSocketCaps } from './socket-caps.js';
import type { UpgradeCaps } from './upgrade-refusal.js';

/* The parts of the gateway's options that follow from the configuration, one idea each. */

/**
 * The room's presence with its JOIN/LEAVE announcer and the LEAVE grace, and, with Redis, this node's
 * heartbeat, which announces the LEAVEs of people whose last connection was on a node that stopped beating,
 * and the JOINs of those this node brings back after it was swept (presence-nodes.ts).
 */
export function watchNodes(
  config: Config,
  stores: { redis: Redis | undefined; nodeId: string; presence: Presence },
  hub: RoomHub,
  clock: Clock,
  log: FastifyBaseLogger,
  departures: Departures = createDepartures(config.LEAVE_GRACE_SECONDS * 1000),
): Pick<ConnectionDeps, 'presence' | 'announcer' | 'departures'> & { heartbeat: NodeHeartbeat | undefined } {
  const { presence } = stores;
  const announcer = createPresenceAnnouncer(hub, clock, {
    members: presence.members && ((roomId) => presence.members!(roomId)),
    hotAbove: config.HOT_ROOM_ABOVE,
    settleMs: config.HOT_ROOM_SETTLE_MS,
  });
  if (!stores.redis) return { presence, announcer, departures, heartbeat: undefined };
  const heartbeat = startNodeHeartbeat({
    redis: stores.redis,
    nodeId: stores.nodeId,
    ttlMs: config.NODE_TTL_SECONDS * 1000,
    left: (roomId, person) => void announcer.announce(roomId, 'LEAVE', person),
    // this node's members never saw them leave: the JOIN is for the other nodes'
    joined: (roomId, person) => void announcer.announce(roomId, 'JOIN', person, { elsewhere: true }),
    warn: (error) => log.warn({ err: error }, 'node heartbeat failed'),
    writeBack: presence.writeBack && ((write) => presence.writeBack!(write)),
  });
  return { presence, announcer, departures, heartbeat };
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

/**
 * Browser origins allowed to open a socket: PUBLIC_URL's, when the operator set it, and ALLOWED_ORIGINS
 * (none: same origin only, so a developer's page opened at any address of the machine connects).
 */
export function socketOrigins(config: Config): string[] {
  return [...(config.publicUrlSet ? [new URL(config.PUBLIC_URL).origin] : []), ...config.ALLOWED_ORIGINS];
}

/** Who a restart sent away (decision 0161): in Redis when nodes share rooms, else in DATA_DIR (none in memory). */
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

/** Signed-in users see their balance from the start; guests hold no credits (docs/product.md#people). */
export function balanceFrameOf(
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

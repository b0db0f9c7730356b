import type { FastifyBaseLogger } from 'fastify';
import type { Redis, RedisOptions } from 'ioredis';

/*
 * While Redis is away a node goes on alone (decision 0147): no command waits in an offline queue,
 * none waits longer than the configured timeout, and what Redis shares between nodes (rate-limit counters,
 * presence) is counted in this node's memory meanwhile.
 */

/** How long, after a command failed, the node skips Redis before trying it again (a half-open link). */
const RETRY_AFTER_MS = 1000;

/** The options of every Redis connection of the server: fail at once rather than queue or retry. */
export function redisOptions(commandTimeoutMs: number): RedisOptions {
  return {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    commandTimeout: commandTimeoutMs,
  };
}

/** Whether to ask Redis now; its users name themselves so the log says once who went on without it. */
export interface RedisOutage {
  /** False while the connection is down or shortly after a command failed: `user` uses this node's memory. */
  usable(user: string): boolean;
  /** A command of `user` failed: Redis is skipped for a moment. */
  failed(user: string, error: unknown): void;
}

export function watchRedis(
  redis: Redis,
  log: FastifyBaseLogger,
  clock: { now(): number } = Date,
): RedisOutage {
  let skipUntil = 0;
  const told = new Set<string>();
  const tell = (user: string, error?: unknown) => {
    if (told.has(user)) return;
    told.add(user);
    log.warn({ err: error }, `${user}: Redis unavailable, counting on this node until it is back`);
  };
  redis.on('ready', () => {
    skipUntil = 0;
    if (told.size === 0) return;
    log.info({ uses: [...told] }, 'Redis is back: counting with the other nodes again');
    told.clear();
  });
  return {
    usable(user) {
      if (redis.status === 'ready' && clock.now() >= skipUntil) return true;
      tell(user);
      return false;
    },
    failed(user, error) {
      skipUntil = clock.now() + RETRY_AFTER_MS;
      tell(user, error);
    },
  };
}

import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { createMemoryBus, type Bus } from './bus.js';
import { createRedisBus } from './redis-bus.js';
import { redisOptions, watchRedis, type RedisOutage } from './redis-outage.js';

/*
 * What nodes share: with REDIS_URL, Redis and the bus over it; in-process otherwise. Both close after
 * everything that uses them, in the lifecycle plugin's order.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** The bus between nodes (in-process without REDIS_URL). */
    xtalkBus: Bus;
    /** The shared Redis client, with REDIS_URL; its users go on without it while it is away. */
    xtalkRedis: Redis | undefined;
    /** Where Redis's users learn that it is away and back (redis-outage.ts); set with `xtalkRedis`. */
    xtalkRedisOutage: RedisOutage | undefined;
  }
}

export interface SharedStores {
  bus: Bus;
  redis: Redis | undefined;
  redisOutage: RedisOutage | undefined;
}

/**
 * Redis and the bus over it, or the in-process bus. They connect before the plugins, like the database,
 * outside Fastify's plugin timeout.
 */
export async function connectBus(config: Config, log: FastifyBaseLogger): Promise<SharedStores> {
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
  return { bus, redis, redisOutage };
}

export const busPlugin = fp<SharedStores>(
  async (app, { bus, redis, redisOutage }) => {
    app.decorate('xtalkBus', bus);
    app.decorate('xtalkRedis', redis);
    app.decorate('xtalkRedisOutage', redisOutage);
  },
  { name: 'xtalk-bus' },
);

import LocalStore, { type RateLimitStore } from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { Redis } from 'ioredis';
import type { RedisOutage } from '../bus/index.js';

/*
 * The counters of the HTTP rate limits: in Redis, so that every node counts together, and in this node's
 * memory while Redis is away (decision 0147), so that a limit neither stalls a request nor lapses.
 */

type Counted = Parameters<RateLimitStore['incr']>[1];

const USER = 'rate limits';

class FallbackStore implements RateLimitStore {
  constructor(
    private readonly shared: RateLimitStore,
    private readonly local: RateLimitStore,
    private readonly outage: RedisOutage,
  ) {}

  incr(key: string, callback: Counted, timeWindow: number, max: number) {
    this.count('incr', key, callback, timeWindow, max);
  }

  read(key: string, callback: Counted, timeWindow: number, max: number) {
    this.count('read', key, callback, timeWindow, max);
  }

  child(routeOptions: object): RateLimitStore {
    return new FallbackStore(this.shared.child(routeOptions), this.local.child(routeOptions), this.outage);
  }

  private count(method: 'incr' | 'read', key: string, callback: Counted, timeWindow: number, max: number) {
    if (!this.outage.usable(USER)) return this.local[method](key, callback, timeWindow, max);
    this.shared[method](
      key,
      (error, result) => {
        if (!error) return callback(null, result);
        this.outage.failed(USER, error);
        this.local[method](key, callback, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }
}

/** The store class @fastify/rate-limit instantiates (`store` option), counting under `nameSpace`. */
export function fallbackStore(redis: Redis, outage: RedisOutage, nameSpace: string) {
  return class extends FallbackStore {
    constructor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      const continueExceeding = options.continueExceeding ?? false;
      const exponentialBackoff = options.exponentialBackoff ?? false;
      super(
        new RedisStore(continueExceeding, exponentialBackoff, redis, nameSpace),
        new LocalStore(continueExceeding, exponentialBackoff),
        outage,
      );
    }
  };
}

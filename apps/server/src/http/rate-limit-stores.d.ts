/*
 * Types of @fastify/rate-limit's own two stores, which its package ships without: the fallback store
 * (rate-limit-store.ts) counts in Redis through one and in this node's memory through the other.
 */

declare module '@fastify/rate-limit/store/LocalStore.js' {
  type Counted = (error: Error | null, result?: { current: number; ttl: number }) => void;
  /** The store contract of @fastify/rate-limit (its own types leave out `read`). */
  export interface RateLimitStore {
    incr(key: string, callback: Counted, timeWindow: number, max: number): void;
    read(key: string, callback: Counted, timeWindow: number, max: number): void;
    child(routeOptions: object): RateLimitStore;
  }
  const LocalStore: new (continueExceeding: boolean, exponentialBackoff: boolean) => RateLimitStore;
  export default LocalStore;
}

declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { Redis } from 'ioredis';
  import type { RateLimitStore } from '@fastify/rate-limit/store/LocalStore.js';
  const RedisStore: new (
    continueExceeding: boolean,
    exponentialBackoff: boolean,
    redis: Redis,
    key: string,
  ) => RateLimitStore;
  export default RedisStore;
}

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, it } from 'vitest';
import { createRedisPresence } from '../realtime/presence.js';
import { checkPresence } from './presence-checks.js';

/* `npm run test:services`: presence in Redis, shared by the nodes, held to the same checks as in memory. */

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
afterAll(async () => {
  await redis.quit();
});

describe('redis presence', () => {
  it('counts people per room and connections per language', async () => {
    const room = `presence-test-${randomUUID()}`;
    try {
      await checkPresence(createRedisPresence(redis), room);
    } finally {
      await redis.del(`xtalk:presence:${room}`, `xtalk:listening:${room}`);
    }
  });
});

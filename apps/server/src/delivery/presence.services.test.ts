import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisPresence } from './index.js';
import { nodeShares } from './index.js';
import { sweepingNode } from './testing/sweeping-node.js';
import type { Person } from './index.js';
import { checkPresence } from '../testing/presence-checks.js';

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
      await checkPresence(createRedisPresence(redis, nodeShares(randomUUID())), room);
    } finally {
      await redis.del(`xtalk:presence:${room}`, `xtalk:listening:${room}`);
    }
  });

  it("takes a dead node's share out of the counts: who was only there leaves, who came back stays", async () => {
    const room = `presence-test-${randomUUID()}`;
    const [dead, alive] = [randomUUID(), randomUUID()];
    const atDead = createRedisPresence(redis, nodeShares(dead));
    const atAlive = createRedisPresence(redis, nodeShares(alive));
    // the dead node's last beat, a moment ago (what its heartbeat writes)
    await redis.multi().set(`xtalk:node:${dead}:alive`, '1', 'PX', 50).sadd('xtalk:nodes', dead).exec();
    expect(await atDead.join(room, 'ann', 'Ann A.')).toBe(true);
    expect(await atDead.join(room, 'bob', 'Bob B.')).toBe(true);
    await atDead.listen(room, undefined, 'ja');
    await atDead.listen(room, undefined, 'ja');
    expect(await atAlive.join(room, 'carol')).toBe(true);
    await atAlive.listen(room, undefined, 'en');
    // Bob's socket moved to the live node before the dead one was noticed: not his first connection
    expect(await atAlive.join(room, 'bob', 'Bob B.')).toBe(false);
    await atAlive.listen(room, undefined, 'ja');

    const left: Array<[string, Person]> = [];
    const heartbeat = sweepingNode(redis, alive, left);
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await heartbeat.beat();
      expect(left).toEqual([[room, { username: 'ann', displayUsername: 'Ann A.' }]]);
      expect(await redis.hgetall(`xtalk:presence:${room}`)).toEqual({ bob: '1', carol: '1' });
      expect(await atAlive.listens(room, 'ja')).toBe(true); // Bob's, on the live node
      await atAlive.listen(room, 'ja', undefined);
      expect(await atAlive.listens(room, 'ja')).toBe(false);
      expect(await redis.sismember('xtalk:nodes', dead)).toBe(0);
      expect(await redis.exists(`xtalk:node:${dead}:presence`)).toBe(0);
      // a second sweep finds nothing more to take
      await heartbeat.beat();
      expect(left).toHaveLength(1);
      expect(await atAlive.leave(room, 'bob')).toBe(true);
    } finally {
      await heartbeat.stop();
      await redis.del(`xtalk:presence:${room}`, `xtalk:listening:${room}`);
    }
    expect(await redis.sismember('xtalk:nodes', alive)).toBe(0);
  });
});

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { RedisOutage } from '../bus/index.js';
import { startFlakyProxy } from '../testing/flaky-proxy.js';
import { createRedisPresence, nodeShares, startNodeHeartbeat, withMemoryFallback } from './index.js';
import type { Person } from './index.js';

/*
 * `npm run test:services`: a node cut off from Redis for longer than its TTL is swept by another node
 * (who was only there leaves); when Redis is back, the node's next beat finds it was swept and writes its
 * connections' shares again, the ones it counted alone meanwhile too.
 */

const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const redis = new Redis(url.toString());
afterAll(async () => {
  await redis.quit();
});
const ready = (client: Redis) =>
  new Promise<void>((resolve) =>
    client.status === 'ready' ? resolve() : client.once('ready', () => resolve()),
  );

describe('a node swept while Redis was away', { timeout: 20_000 }, () => {
  it('writes its shares again on its first beat once Redis is back', async () => {
    const room = `presence-test-${randomUUID()}`;
    const [cutId, otherId] = [randomUUID(), randomUUID()];
    const proxy = await startFlakyProxy(Number(url.port || 6379));
    const cut = new Redis({
      host: '127.0.0.1',
      port: proxy.port,
      // as the server's connections: fail at once rather than queue while Redis is away
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 500,
      retryStrategy: () => 50,
    });
    cut.on('error', () => undefined); // refused while the proxy is stopped: expected
    await cut.connect();
    // the server's watch asks the same of the connection: ready, or this node counts alone
    const outage: RedisOutage = { usable: () => cut.status === 'ready', failed: () => undefined };
    const atCut = withMemoryFallback(createRedisPresence(cut, nodeShares(cutId)), outage);
    const heartbeat = startNodeHeartbeat({
      redis: cut,
      nodeId: cutId,
      ttlMs: 600,
      left: () => undefined,
      warn: () => undefined,
      holdings: () => atCut.holdings!(),
    });
    const left: Array<[string, Person]> = [];
    const sweeper = startNodeHeartbeat({
      redis,
      nodeId: otherId,
      ttlMs: 60_000,
      left: (roomId, person) => left.push([roomId, person]),
      warn: (error) => {
        throw error;
      },
    });
    try {
      await heartbeat.beat();
      expect(await atCut.join(room, 'ann', 'Ann A.')).toBe(true);
      await atCut.listen(room, undefined, 'ja');
      expect(await redis.hgetall(`xtalk:presence:${room}`)).toEqual({ ann: '1' });

      await proxy.stop();
      expect(await atCut.join(room, 'bob', 'Bob B.')).toBe(true); // counted on this node alone
      // the other node sweeps once the cut node's alive key has expired
      await expect
        .poll(async () => (await sweeper.beat(), left), { timeout: 5000, interval: 100 })
        .toEqual([[room, { username: 'ann', displayUsername: 'Ann A.' }]]);
      expect(await redis.hgetall(`xtalk:presence:${room}`)).toEqual({});
      expect(await redis.sismember('xtalk:nodes', cutId)).toBe(0);

      await proxy.start();
      await ready(cut);
      await heartbeat.beat(); // one beat after Redis is back
      expect(await redis.hgetall(`xtalk:presence:${room}`)).toEqual({ ann: '1', bob: '1' });
      expect(await redis.hgetall(`xtalk:listening:${room}`)).toEqual({ ja: '1' });
      expect(await redis.sismember('xtalk:nodes', cutId)).toBe(1);
      expect(await redis.hget(`xtalk:node:${cutId}:presence`, `n\u0000${room}\u0000bob`)).toBe('Bob B.');
      // written once: another beat changes nothing, and the shares leave with their connections
      await heartbeat.beat();
      expect(await redis.hgetall(`xtalk:presence:${room}`)).toEqual({ ann: '1', bob: '1' });
      expect(await atCut.leave(room, 'bob')).toBe(true);
      await atCut.listen(room, 'ja', undefined);
      expect(await redis.hgetall(`xtalk:presence:${room}`)).toEqual({ ann: '1' });
      expect(await atCut.listens(room, 'ja')).toBe(false);
    } finally {
      await Promise.all([heartbeat.stop(), sweeper.stop()]);
      cut.disconnect();
      await proxy.close();
      await redis.del(`xtalk:presence:${room}`, `xtalk:listening:${room}`);
    }
  });
});

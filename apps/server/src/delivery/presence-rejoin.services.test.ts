import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { RedisOutage } from '../bus/index.js';
import { startFlakyProxy, type FlakyProxy } from '../testing/flaky-proxy.js';
import { createRedisPresence, nodeShares, startNodeHeartbeat, withMemoryFallback } from './index.js';
import type { NodeHeartbeat, Person, Presence } from './index.js';
import { sweepingNode } from './testing/sweeping-node.js';

/*
 * `npm run test:services`: a node cut off from Redis for longer than its TTL is swept by another node
 * (who was only there leaves); when Redis is back, the node's next beat finds it was swept and writes its
 * connections' shares again, the ones it counted alone meanwhile too, and announces who that brings back.
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

interface SweptNode {
  room: string;
  /** The cut node's presence, as the server builds it. */
  atCut: Presence;
  /** The other node's presence, on the same shared counts. */
  atOther: Presence;
  heartbeat: NodeHeartbeat;
  left: Array<[string, Person]>;
  joined: Array<[string, Person]>;
  /** Redis goes away until the other node has swept the cut one; `during` runs while it is away. */
  sweep(during?: () => Promise<void>): Promise<void>;
  /** Redis is back for the cut node. */
  reconnect(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A node behind a proxy that can cut it from Redis, beside a node that sweeps it. `wrap` stands between
 * the cut node's fallback and its shared presence (a slow Redis); `onWriteBack` runs as a write-back asks.
 */
async function sweptNode(
  wrap: (shared: Presence) => Presence = (shared) => shared,
  onWriteBack: () => void = () => undefined,
): Promise<SweptNode> {
  const room = `presence-test-${randomUUID()}`;
  const [cutId, otherId] = [randomUUID(), randomUUID()];
  const proxy: FlakyProxy = await startFlakyProxy(Number(url.port || 6379));
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
  const atCut = withMemoryFallback(wrap(createRedisPresence(cut, nodeShares(cutId))), outage);
  const left: Array<[string, Person]> = [];
  const joined: Array<[string, Person]> = [];
  const heartbeat = startNodeHeartbeat({
    redis: cut,
    nodeId: cutId,
    ttlMs: 600,
    left: () => undefined,
    joined: (roomId, person) => joined.push([roomId, person]),
    warn: () => undefined,
    writeBack: (write) => {
      onWriteBack();
      return atCut.writeBack!(write);
    },
  });
  const sweeper = sweepingNode(redis, otherId, left);
  await heartbeat.beat();
  return {
    room,
    atCut,
    atOther: createRedisPresence(redis, nodeShares(otherId)),
    heartbeat,
    left,
    joined,
    async sweep(during) {
      await proxy.stop();
      await during?.();
      // the other node sweeps once the cut node's alive key has expired
      await expect
        .poll(async () => (await sweeper.beat(), redis.sismember('xtalk:nodes', cutId)), {
          timeout: 5000,
          interval: 100,
        })
        .toBe(0);
    },
    async reconnect() {
      await proxy.start();
      await ready(cut);
    },
    async close() {
      await Promise.all([heartbeat.stop(), sweeper.stop()]);
      cut.disconnect();
      await proxy.close();
      await redis.del(`xtalk:presence:${room}`, `xtalk:listening:${room}`);
    },
  };
}

describe('a node swept while Redis was away', { timeout: 20_000 }, () => {
  it('writes its shares again on its first beat once Redis is back, and announces who it brings back', async () => {
    const node = await sweptNode();
    const { room, atCut } = node;
    try {
      expect(await atCut.join(room, 'ann', 'Ann A.')).toBe(true);
      await atCut.join(room, 'cat', 'Cat C.');
      await node.atOther.join(room, 'cat', 'Cat C.'); // also on the other node: never leaves
      await atCut.listen(room, undefined, 'ja');
      expect(await redis.hgetall(`xtalk:presence:${room}`)).toEqual({ ann: '1', cat: '2' });

      await node.sweep(async () => {
        expect(await atCut.join(room, 'bob', 'Bob B.')).toBe(true); // counted on this node alone
      });
      expect(node.left).toEqual([[room, { username: 'ann', displayUsername: 'Ann A.' }]]);
      expect(await redis.hgetall(`xtalk:presence:${room}`)).toEqual({ cat: '1' });

      await node.reconnect();
      await node.heartbeat.beat(); // one beat after Redis is back
      expect(await redis.hgetall(`xtalk:presence:${room}`)).toEqual({ ann: '1', bob: '1', cat: '2' });
      expect(await redis.hgetall(`xtalk:listening:${room}`)).toEqual({ ja: '1' });
      // the other nodes heard Ann leave and never heard Bob come; Cat never left
      expect(node.joined).toEqual([
        [room, { username: 'ann', displayUsername: 'Ann A.' }],
        [room, { username: 'bob', displayUsername: 'Bob B.' }],
      ]);
      // written once: another beat changes nothing, and the shares leave with their connections
      await node.heartbeat.beat();
      expect(await redis.hgetall(`xtalk:presence:${room}`)).toEqual({ ann: '1', bob: '1', cat: '2' });
      expect(node.joined).toHaveLength(2);
      expect(await atCut.leave(room, 'bob')).toBe(true);
      await atCut.listen(room, 'ja', undefined);
      expect(await redis.hgetall(`xtalk:presence:${room}`)).toEqual({ ann: '1', cat: '2' });
      expect(await atCut.listens(room, 'ja')).toBe(false);
    } finally {
      await node.close();
    }
  });

  it('counts a join under way as the write-back starts once', async () => {
    // once armed, Redis takes a join only when the write-back has asked for this node's counts
    let release = () => undefined as void;
    const node = await sweptNode(
      (shared) => ({ ...shared, join: async (...args) => (await slow, shared.join(...args)) }),
      () => release(),
    );
    const slow = new Promise<void>((resolve) => (release = resolve));
    const { room, atCut } = node;
    try {
      await node.sweep();
      await node.reconnect();
      const joining = atCut.join(room, 'cy', 'Cy C.');
      await node.heartbeat.beat();
      expect(await joining).toBe(true);
      expect(await redis.hgetall(`xtalk:presence:${room}`)).toEqual({ cy: '1' });
      // the join announced itself: the write-back brought nobody back
      expect(node.joined).toEqual([]);
      expect(await atCut.leave(room, 'cy')).toBe(true);
      expect(await redis.hgetall(`xtalk:presence:${room}`)).toEqual({});
    } finally {
      await node.close();
    }
  });
});

import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuestLoginResponse } from '@xtalk/protocol';
import { freePort } from '../testing/free-port.js';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';
import { startRedis, stopRedis } from '../testing/redis-server.js';

/*
 * `npm run test:services`: a node keeps answering what it can answer alone while its Redis is down. The
 * test kills a redis-server of its own (never the shared one), and each request a newcomer makes while it
 * is away answers within a second: a new guest, /api/me, a join, a new room and its first message.
 */

const QUICK_MS = 1000;

/** How long `work` took, in ms, with its result. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

describe('a Redis outage stalls nobody', { timeout: 60_000 }, () => {
  let redis: ChildProcess | undefined;
  let node: TestServer;
  let host: GuestLoginResponse;
  let roomId: string;
  let port: number;
  const lines: string[] = [];
  const logged = (text: string) => lines.filter((line) => line.includes(text)).length;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    node = await startServer(
      { REDIS_URL: `redis://127.0.0.1:${port}`, LANGUAGES: 'en' },
      { logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } },
    );
    host = await guestLogin(node.app);
    roomId = (await joinRoom(node.app, host.token, null)).roomId;
  }, 60_000);

  afterAll(async () => {
    await node?.close();
    if (redis) await stopRedis(redis);
  });

  it('answers a new guest, /api/me, a join, a new room and its first message within a second', async () => {
    await stopRedis(redis!);
    redis = undefined;
    await expect
      .poll(async () => (await node.app.inject({ method: 'GET', url: '/api/health' })).json(), {
        timeout: 10_000,
      })
      .toMatchObject({ status: 'degraded', busConnected: false });
    const guest = await timed(() => guestLogin(node.app));
    const me = await timed(() =>
      node.app.inject({
        method: 'GET',
        url: '/api/me',
        headers: { authorization: `Bearer ${guest.result.token}` },
      }),
    );
    expect(me.result.statusCode).toBe(200);
    const join = await timed(() => TestClient.join(node, guest.result, roomId, 'en', { protocolVersion: 5 }));
    join.result.ws.close();
    const created = await timed(() => joinRoom(node.app, guest.result.token, null));
    const room = created.result.roomId;
    const author = await TestClient.join(node, guest.result, room, 'en', { protocolVersion: 5 });
    const first = await timed(async () => {
      author.send({ type: 'chat', language: 'en', message: 'first', room, clientId: 'first-1' });
      return author.next((frame) => frame.type === 'message' && frame.message === 'first');
    });
    author.ws.close();
    const took = { guest: guest.ms, me: me.ms, join: join.ms, created: created.ms, first: first.ms };
    console.log(
      `during the outage (ms): ${JSON.stringify(took, (_key, v: unknown) => (typeof v === 'number' ? Math.round(v) : v))}`,
    );
    for (const ms of Object.values(took)) expect(ms).toBeLessThan(QUICK_MS);
    // the limits and presence went on in this node's memory, and said so once
    expect(logged('rate limits: Redis unavailable')).toBe(1);
    expect(logged('presence: Redis unavailable')).toBe(1);

    redis = await startRedis(port);
    await expect
      .poll(async () => (await node.app.inject({ method: 'GET', url: '/api/health' })).json(), {
        timeout: 10_000,
      })
      .toMatchObject({ status: 'ok', busConnected: true });
    await expect.poll(() => logged('Redis is back'), { timeout: 10_000 }).toBe(1);
    const back = await TestClient.join(node, await guestLogin(node.app), room, 'en', { protocolVersion: 5 });
    back.ws.close();
  });
});

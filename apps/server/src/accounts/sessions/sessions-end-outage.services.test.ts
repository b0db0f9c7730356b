import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode } from '@xtalk/protocol';
import { freePort } from '../../testing/free-port.js';
import { guestLogin, joinRoom, TestClient, type TestServer } from '../../testing/harness.js';
import { startRedis, stopRedis } from '../../testing/redis-server.js';
import { serviceNodes } from '../../testing/service-nodes.js';

/*
 * `npm run test:services`: a session ended while Redis is away. The node that ended it cannot tell the
 * others then; the token is refused everywhere all the same (the database says so), and the other node
 * closes the session's socket once its bus is back. The test kills a redis-server of its own, never the
 * shared one.
 */

const port = await freePort();
let redis: ChildProcess | undefined = await startRedis(port);
// hooks after the tests run in reverse: this one, registered first, stops Redis after the nodes closed
afterAll(async () => {
  if (redis) await stopRedis(redis);
});
const services = serviceNodes('xtalk_sessions_outage', 2, { REDIS_URL: `redis://127.0.0.1:${port}` });
let a: TestServer;
let b: TestServer;

beforeAll(() => {
  [a, b] = services.nodes as [TestServer, TestServer];
});

describe('a session ended while Redis is away', { timeout: 60_000 }, () => {
  it('is refused at once, and its socket on the other node closes when Redis is back', async () => {
    const guest = await guestLogin(b.app);
    const { roomId } = await joinRoom(b.app, guest.token, null);
    const socket = await TestClient.join(b, guest, roomId);

    await stopRedis(redis!);
    redis = undefined;
    const ended = await a.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${guest.token}` },
    });
    expect(ended.statusCode, ended.body).toBe(200);
    for (const node of [a, b]) {
      const me = await node.app.inject({
        method: 'GET',
        url: '/api/me',
        headers: { authorization: `Bearer ${guest.token}` },
      });
      expect(me.statusCode).toBe(401);
    }

    redis = await startRedis(port);
    expect(await socket.closed(30_000)).toBe(CloseCode.SignedOut);
  });
});

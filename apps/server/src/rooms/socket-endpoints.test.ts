import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinRoomResponseSchema } from '@xtalk/protocol';
import { loadConfig } from '../config.js';
import { guestLogin, startServer, type TestServer } from '../testing/harness.js';
import { roomEndpointOrder } from './room-home.js';

/* PUBLIC_WS_ENDPOINTS: the nodes' addresses, told with every session, so the web client can fail over. */

async function joinOn(server: TestServer) {
  const { token } = await guestLogin(server.app);
  const response = await server.app.inject({
    method: 'POST',
    url: '/xtalk',
    headers: { authorization: `Bearer ${token}` },
    payload: { action: 'join', roomId: null },
  });
  expect(response.statusCode).toBe(200);
  const policy = String(response.headers['content-security-policy']);
  const connectSrc = /connect-src ([^;]*)/.exec(policy)?.[1]?.split(' ');
  return { ...joinRoomResponseSchema.parse(response.json()), connectSrc };
}

describe('PUBLIC_WS_ENDPOINTS', () => {
  const endpoints = ['wss://node-a.xtalk.example', 'wss://node-b.xtalk.example:8443', 'ws://10.0.0.3:8787'];
  let listed: TestServer;
  let plain: TestServer;
  beforeAll(async () => {
    [listed, plain] = await Promise.all([
      startServer({ PUBLIC_WS_ENDPOINTS: ` ${endpoints.join(' , ')} ` }),
      startServer(),
    ]);
  }, 60_000);
  afterAll(() => Promise.all([listed.close(), plain.close()]));

  it('comes with every session, in the order set; unset, the answer names none (the page’s origin)', async () => {
    expect((await joinOn(listed)).socketEndpoints).toEqual(endpoints);
    expect(await joinOn(plain)).not.toHaveProperty('socketEndpoints');
  });

  it('comes in the room’s own order beside it, the same for every join of the room (decision 0237)', async () => {
    const first = await joinOn(listed);
    expect([...first.roomEndpoints!].sort()).toEqual([...endpoints].sort());
    const { token } = await guestLogin(listed.app);
    const again = await listed.app.inject({
      method: 'POST',
      url: '/xtalk',
      headers: { authorization: `Bearer ${token}` },
      payload: { action: 'join', roomId: first.roomId },
    });
    expect(again.json()).toMatchObject({ roomEndpoints: first.roomEndpoints, socketEndpoints: endpoints });
    expect(await joinOn(plain)).not.toHaveProperty('roomEndpoints');
  });

  it('starts a hot room’s joiner at the node whose turn it is; a count it cannot have, at home (0250)', async () => {
    const first = await joinOn(listed);
    const order = roomEndpointOrder(first.roomId, endpoints);
    const presence = listed.app.xtalkPresence;
    const counted = presence.members;
    const { token } = await guestLogin(listed.app);
    const join = async () =>
      joinRoomResponseSchema.parse(
        (
          await listed.app.inject({
            method: 'POST',
            url: '/xtalk',
            headers: { authorization: `Bearer ${token}` },
            payload: { action: 'join', roomId: first.roomId },
          })
        ).json(),
      ).roomEndpoints;
    try {
      // the default share is a thousand people a node
      presence.members = async () => 2000;
      expect(await join()).toEqual([order[2], order[0], order[1]]);
      presence.members = async () => 999;
      expect(await join()).toEqual(order);
      presence.members = () => Promise.reject(new Error('Redis is away'));
      expect(await join()).toEqual(order);
    } finally {
      presence.members = counted;
    }
  });

  it('is what the page may connect to besides its own origin, and each node’s readiness', async () => {
    // each node's socket, and its readiness, read before a move back to a room's home (decision 0237)
    const readiness = (origin: string) => `${origin.replace(/^ws/, 'http')}/api/health/ready`;
    expect((await joinOn(listed)).connectSrc).toEqual([
      "'self'",
      ...endpoints.flatMap((origin) => [origin, readiness(origin)]),
    ]);
    expect((await joinOn(plain)).connectSrc).toEqual(["'self'"]);
  });

  it('refuses an address that is not ws:// or wss://, or has a path, naming the setting', () => {
    for (const bad of ['https://node-a.example', 'wss://node-a.example/xtalk_ws', 'node-a.example:8787']) {
      expect(() => loadConfig({ PUBLIC_WS_ENDPOINTS: `wss://ok.example,${bad}` }), bad).toThrow(
        /PUBLIC_WS_ENDPOINTS/,
      );
    }
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { CloseCode, PROTOCOL_VERSION } from '@xtalk/protocol';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';
import { clientAddress } from './socket-caps.js';

/* Caps on open sockets: per address, per user, one per session. Real server, real sockets. */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const refusal = (url: string, headers: Record<string, string> = {}) =>
  TestClient.open(url, { headers }).then(
    (client) => ({ client, status: 0 }),
    (error: { statusCode?: number }) => ({ client: undefined, status: error.statusCode ?? -1 }),
  );

describe('socket caps', { timeout: 60_000 }, () => {
  it('caps open sockets per address and frees a place when one closes', async () => {
    server = await startServer({ MAX_SOCKETS_PER_IP: '2', TRUST_PROXY_HOPS: '1' });
    const socketUrl = async () => {
      const login = await guestLogin(server!.app);
      const { sessionId } = await joinRoom(server!.app, login.token, null);
      return `${server!.wsBase}/xtalk_ws/${sessionId}?t=${login.token}`;
    };
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const first = await refusal(await socketUrl(), from('198.51.100.1'));
    const second = await refusal(await socketUrl(), from('198.51.100.1'));
    expect([first.status, second.status]).toEqual([0, 0]);
    const third = await refusal(await socketUrl(), from('198.51.100.1'));
    expect(third.status).toBe(429);
    // another address is counted on its own
    const elsewhere = await refusal(await socketUrl(), from('198.51.100.2'));
    expect(elsewhere.status).toBe(0);
    first.client!.close();
    await first.client!.closed();
    // the server counts the close when it sees it: retry until the place is free
    let again = await refusal(await socketUrl(), from('198.51.100.1'));
    for (let i = 0; i < 20 && again.status === 429; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await refusal(await socketUrl(), from('198.51.100.1'));
    }
    expect(again.status).toBe(0);
    for (const open of [second, elsewhere, again]) open.client!.close();
  }, 60_000);

  it('caps open sockets per user, and a session has one socket: a new one replaces the old', async () => {
    server = await startServer({ MAX_SOCKETS_PER_USER: '2' });
    const alice = await guestLogin(server.app);
    const url = async () => {
      const { sessionId } = await joinRoom(server!.app, alice.token, null);
      return `${server!.wsBase}/xtalk_ws/${sessionId}?t=${alice.token}`;
    };
    const firstUrl = await url();
    const first = await refusal(firstUrl);
    const second = await refusal(await url());
    expect([first.status, second.status]).toEqual([0, 0]);
    expect((await refusal(await url())).status).toBe(429);
    // bob is not affected by alice's sockets
    const bob = await guestLogin(server.app);
    const bobSession = await joinRoom(server.app, bob.token, null);
    const bobSocket = await refusal(`${server.wsBase}/xtalk_ws/${bobSession.sessionId}?t=${bob.token}`);
    expect(bobSocket.status).toBe(0);
    // the first session again (a reconnect): allowed, and the old socket of that session is closed
    const reconnect = await refusal(firstUrl);
    expect(reconnect.status).toBe(0);
    expect(await first.client!.closed()).toBe(CloseCode.SessionEnded);
    // the replacement works
    reconnect.client!.send({
      type: 'setUsername',
      protocolVersion: PROTOCOL_VERSION,
      username: alice.user.username,
      language: 'en',
      room: 'X',
    });
    expect(await reconnect.client!.next((frame) => frame.type === 'error')).toMatchObject({
      code: 'wrong_room',
    });
    for (const open of [second, bobSocket, reconnect]) open.client!.close();
  }, 60_000);
});

describe('client address', { timeout: 60_000 }, () => {
  const request = (forwarded?: string) => ({
    socket: { remoteAddress: '127.0.0.1' },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  });
  it('trusts as many proxies as configured, and no more', () => {
    expect(clientAddress(request('1.1.1.1, 2.2.2.2'), 0)).toBe('127.0.0.1');
    expect(clientAddress(request('1.1.1.1, 2.2.2.2'), 1)).toBe('2.2.2.2');
    expect(clientAddress(request('1.1.1.1, 2.2.2.2'), 2)).toBe('1.1.1.1');
    expect(clientAddress(request('2.2.2.2'), 3)).toBe('2.2.2.2');
    expect(clientAddress(request(), 1)).toBe('127.0.0.1');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  guestLogin,
  joinRoom,
  startServer,
  TestClient,
  userIdOf,
  type TestServer,
} from '../testing/harness.js';
import { markMerged } from '../testing/seed/index.js';

describe('socket handshake', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ ALLOWED_ORIGINS: 'https://friend.example' });
  });
  afterAll(() => server.close());

  const refusal = (url: string, headers: Record<string, string> = {}) =>
    TestClient.open(url, { headers }).then(
      () => 0,
      (error: { statusCode?: number }) => error.statusCode,
    );

  it('opens for the session owner with a valid token', async () => {
    const login = await guestLogin(server.app);
    const { sessionId } = await joinRoom(server.app, login.token, null);
    const client = await TestClient.open(`${server.wsBase}/xtalk_ws/${sessionId}?t=${login.token}`);
    client.close();
  });

  it('opens the first socket after a join from what the join left, and reads the user for the next (decision 0138)', async () => {
    const [login, other] = [await guestLogin(server.app), await guestLogin(server.app)];
    const { sessionId } = await joinRoom(server.app, login.token, null);
    const url = `${server.wsBase}/xtalk_ws/${sessionId}?t=${login.token}`;
    // merged away since the join: only the hand-off, with the user the join read, can open this socket
    const ids = [login, other].map((each) => userIdOf(server, each.user.username));
    await markMerged(server, await ids[0]!, await ids[1]!);
    const client = await TestClient.open(url);
    client.close();
    // the hand-off was used up: a reconnect reads the user, and refuses it
    expect(await refusal(url)).toBe(401);
  });

  it("refuses an unknown session, a bad token, someone else's session and a bad path before upgrading", async () => {
    const alice = await guestLogin(server.app);
    const bob = await guestLogin(server.app);
    const { sessionId } = await joinRoom(server.app, alice.token, null);
    expect(await refusal(`${server.wsBase}/xtalk_ws/unknownsession?t=${alice.token}`)).toBe(401);
    expect(await refusal(`${server.wsBase}/xtalk_ws/${sessionId}?t=forged`)).toBe(401);
    expect(await refusal(`${server.wsBase}/xtalk_ws/${sessionId}`)).toBe(401);
    expect(await refusal(`${server.wsBase}/xtalk_ws/${sessionId}?t=${bob.token}`)).toBe(403);
    expect(await refusal(`${server.wsBase}/elsewhere/${sessionId}?t=${alice.token}`)).toBe(404);
  });

  it('refuses a browser handshake from a foreign origin and accepts listed and same origins', async () => {
    const login = await guestLogin(server.app);
    const { sessionId } = await joinRoom(server.app, login.token, null);
    const url = `${server.wsBase}/xtalk_ws/${sessionId}?t=${login.token}`;
    expect(await refusal(url, { origin: 'https://evil.example' })).toBe(403);
    expect(await refusal(url, { origin: 'https://friend.example' })).toBe(0);
  });

  it('accepts the same origin when no origins are configured', async () => {
    const plain = await startServer();
    try {
      const login = await guestLogin(plain.app);
      const { sessionId } = await joinRoom(plain.app, login.token, null);
      const url = `${plain.wsBase}/xtalk_ws/${sessionId}?t=${login.token}`;
      expect(await refusal(url, { origin: plain.baseUrl })).toBe(0);
      expect(await refusal(url, { origin: 'http://127.0.0.1:1' })).toBe(403);
    } finally {
      await plain.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userSchema } from '@xtalk/protocol';
import { guestLogin, solveBotcheck, startServer, type TestServer } from '../../testing/harness.js';
import { createTokens } from '../sessions/tokens.js';

describe('guest entry', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ AUTH_SECRET: 'test-secret-that-is-long-enough-to-sign-tokens' });
  });
  afterAll(() => server.close());

  it('offers an ALTCHA proof-of-work challenge by default', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/auth/botcheck' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(body.provider).toBe('altcha');
    expect(body.challenge.parameters.algorithm).toBe('SHA-256');
    expect(body.challenge.signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs a solved challenge in as a guest with a token, user and player', async () => {
    const login = await guestLogin(server.app);
    expect(login.token.split('.')).toHaveLength(3);
    expect(userSchema.parse(login.user)).toMatchObject({ provider: 'guest', appId: 'xtalk' });
    expect(login.user.username).toMatch(/^g-[0-9a-f]{12}$/);
    expect(login.user.displayUsername).toMatch(/^[A-Z][a-z]+[A-Z][a-z]+$/);
    expect(login.player).toEqual({ id: login.user.userId, platformPlayerID: login.user.platformPlayerId });
    const lifetime = login.user.expiresAt - Math.floor(Date.now() / 1000);
    expect(lifetime).toBeGreaterThan(43_200 - 60);
    expect(lifetime).toBeLessThanOrEqual(43_200);
  });

  it('refuses a replayed payload', async () => {
    const botcheck = await solveBotcheck(server.app);
    const first = await server.app.inject({ method: 'POST', url: '/api/auth/guest', payload: { botcheck } });
    expect(first.statusCode).toBe(200);
    const again = await server.app.inject({ method: 'POST', url: '/api/auth/guest', payload: { botcheck } });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toMatch(/already used/);
  });

  it('refuses a forged, tampered or missing payload with a clear 400 and creates no user', async () => {
    const solved = JSON.parse(Buffer.from(await solveBotcheck(server.app), 'base64').toString());
    solved.solution.counter += 1;
    const cases = [
      { botcheck: Buffer.from(JSON.stringify(solved)).toString('base64') },
      { botcheck: 'not-base64-json' },
      { botcheck: '' },
      {},
      { botcheck: 42 },
    ];
    for (const payload of cases) {
      const response = await server.app.inject({ method: 'POST', url: '/api/auth/guest', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toBeTruthy();
    }
    const notJson = await server.app.inject({
      method: 'POST',
      url: '/api/auth/guest',
      headers: { 'content-type': 'application/json' },
      payload: '{nope',
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('tells who the token belongs to, and 401s a missing, forged or expired token', async () => {
    const login = await guestLogin(server.app);
    const me = await server.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${login.token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(login.user);

    const missing = await server.app.inject({ method: 'GET', url: '/api/me' });
    expect(missing.statusCode).toBe(401);

    const forgedToken = await createTokens('another-secret-entirely-another-secret', 3600, {
      now: Date.now,
    }).sign({
      userId: login.user.userId,
      provider: 'guest',
      platformPlayerId: login.user.platformPlayerId,
    });
    const forged = await server.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${forgedToken.token}` },
    });
    expect(forged.statusCode).toBe(401);

    const past = { now: () => Date.now() - 50_000 * 1000 };
    const expiredToken = await createTokens(
      'test-secret-that-is-long-enough-to-sign-tokens',
      43_200,
      past,
    ).sign({
      userId: login.user.userId,
      provider: 'guest',
      platformPlayerId: login.user.platformPlayerId,
    });
    const expired = await server.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${expiredToken.token}` },
    });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toMatch(/expired/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, type GuestLoginResponse } from '@xtalk/protocol';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { guestLogin, startServer, type TestServer } from '../testing/harness.js';
import { policyOf } from './rate-limits.js';
import { storedUsers } from '../testing/seed/index.js';

/*
 * Every HTTP rate limit: 429, the one JSON error shape and `retry-after`; other addresses and users
 * unaffected. One server with every limit low; each test comes from addresses of its own (inject's
 * remoteAddress), since counters are per address.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    GUESTS_PER_MINUTE_PER_IP: '2',
    RATE_LIMIT_BOTCHECK_PER_MINUTE: '3',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '2',
    RATE_LIMIT_API_PER_MINUTE_PER_USER: '3',
    RATE_LIMIT_API_PER_MINUTE_PER_IP: '4',
    ROOM_LOOKUP_MISSES_PER_MINUTE: '2',
    ROOM_JOINS_PER_MINUTE_PER_USER: '2',
  });
}, 60_000);
afterAll(() => server.close());

let nextAddress = 1;
/** An address no other test has used. */
const freshIp = () => `10.1.0.${nextAddress++}`;

async function guestPost(remoteAddress: string) {
  const challengeResponse = await server.app.inject({ url: '/api/auth/botcheck', remoteAddress });
  const { challenge } = challengeResponse.json() as {
    challenge: Parameters<typeof solveChallenge>[0]['challenge'];
  };
  const solution = await solveChallenge({ challenge, deriveKey });
  const botcheck = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  return server.app.inject({ method: 'POST', url: '/api/auth/guest', payload: { botcheck }, remoteAddress });
}

/** A new guest signed in from an address of its own (so it does not use up another test's counters). */
async function guest(): Promise<GuestLoginResponse> {
  const response = await guestPost(freshIp());
  expect(response.statusCode).toBe(200);
  return response.json();
}

function expectLimited(response: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect(response.statusCode).toBe(429);
  const body = errorBodySchema.parse(response.json());
  expect(body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
  expect(body.message).toMatch(/try again in \d+ s/);
  expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
}

describe('HTTP rate limits', { timeout: 60_000 }, () => {
  it('caps guests created per minute per IP and creates nobody when refused', async () => {
    const ip = freshIp();
    expect((await guestPost(ip)).statusCode).toBe(200);
    expect((await guestPost(ip)).statusCode).toBe(200);
    const users = async () => (await storedUsers(server)).length;
    const before = await users();
    expectLimited(await guestPost(ip));
    expect(await users()).toBe(before);
    // another address is counted on its own
    expect((await guestPost(freshIp())).statusCode).toBe(200);
  }, 60_000);

  it('caps bot-check challenges per IP', async () => {
    const ip = freshIp();
    for (let i = 0; i < 3; i++) {
      expect((await server.app.inject({ url: '/api/auth/botcheck', remoteAddress: ip })).statusCode).toBe(
        200,
      );
    }
    expectLimited(await server.app.inject({ url: '/api/auth/botcheck', remoteAddress: ip }));
    expect(
      (await server.app.inject({ url: '/api/auth/botcheck', remoteAddress: freshIp() })).statusCode,
    ).toBe(200);
  }, 60_000);

  it('caps sign-in requests (Google login and the code exchange) per IP', async () => {
    const remoteAddress = freshIp();
    expect((await server.app.inject({ url: '/auth/google/login', remoteAddress })).statusCode).toBe(302);
    const exchange = () =>
      server.app.inject({
        method: 'POST',
        url: '/api/auth/exchange',
        payload: { token: 'nope' },
        remoteAddress,
      });
    expect((await exchange()).statusCode).toBe(400);
    expectLimited(await exchange());
    expectLimited(await server.app.inject({ url: '/auth/google/callback?code=x&state=y', remoteAddress }));
  }, 60_000);

  it('caps API requests per user, whatever address they come from, and per IP', async () => {
    const alice = await guest();
    const bob = await guest();
    const shared = freshIp();
    const me = (token: string, remoteAddress = shared) =>
      server.app.inject({ url: '/api/me', headers: { authorization: `Bearer ${token}` }, remoteAddress });
    expect((await me(alice.token)).statusCode).toBe(200);
    expect((await me(alice.token, freshIp())).statusCode).toBe(200);
    expect((await me(alice.token)).statusCode).toBe(200);
    expectLimited(await me(alice.token, freshIp()));
    // players and rooms are API routes too
    expectLimited(
      await server.app.inject({
        url: `/api/player/${alice.user.userId}`,
        headers: { authorization: `Bearer ${alice.token}` },
        remoteAddress: freshIp(),
      }),
    );
    // bob is under his own limit, but the shared address has alice's 2 and his 2: full
    expect((await me(bob.token)).statusCode).toBe(200);
    expect((await me(bob.token)).statusCode).toBe(200);
    expectLimited(await me(bob.token));
    // a forged token is counted by address only (and refused by the route)
    expect((await me('forged.token.here', freshIp())).statusCode).toBe(401);
  }, 60_000);

  it('caps room joins per user (each makes a socket session)', async () => {
    const joiner = await guest();
    const join = () =>
      server.app.inject({
        method: 'POST',
        url: '/xtalk',
        headers: { authorization: `Bearer ${joiner.token}` },
        payload: { action: 'join', roomId: null },
        remoteAddress: freshIp(),
      });
    for (let i = 0; i < 2; i++) expect((await join()).statusCode).toBe(200);
    expectLimited(await join());
  }, 60_000);

  /** POST /xtalk as `token` from `remoteAddress`: `code` null creates a room. */
  const join = (token: string, code: string | null, remoteAddress: string) =>
    server.app.inject({
      method: 'POST',
      url: '/xtalk',
      headers: { authorization: `Bearer ${token}` },
      payload: { action: 'join', roomId: code },
      remoteAddress,
    });

  it('limits unknown room code lookups per user; the health check is never limited', async () => {
    const guesser = await guest();
    const host = await guest();
    const guesserIp = freshIp();
    const hostIp = freshIp();
    const created = await join(host.token, null, hostIp);
    const { roomId } = created.json() as { roomId: string };
    expect((await join(guesser.token, 'ZZZZZZZ', guesserIp)).statusCode).toBe(404);
    expect((await join(guesser.token, 'YYYYYYY', guesserIp)).statusCode).toBe(404);
    // at the limit even a right guess is refused: a hit must not be found by guessing on
    expectLimited(await join(guesser.token, roomId, guesserIp));
    // the same user from another address: counted per user
    expectLimited(await join(guesser.token, roomId, freshIp()));
    // the host from elsewhere still joins
    expect((await join(host.token, roomId, hostIp)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++)
      expect((await server.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  }, 60_000);
});

describe('which routes are limited', { timeout: 60_000 }, () => {
  it('puts every API path under a policy, routes added later included', () => {
    expect(policyOf('GET', '/api/auth/botcheck')).toBe('botcheck');
    expect(policyOf('POST', '/api/auth/guest')).toBe('guest');
    expect(policyOf('POST', '/api/auth/exchange')).toBe('signIn');
    expect(policyOf('POST', '/api/auth/email/login')).toBe('signIn');
    expect(policyOf('GET', '/auth/google/login')).toBe('signIn');
    expect(policyOf('GET', '/api/auth/config')).toBe('api');
    expect(policyOf('POST', '/xtalk')).toBe('api');
    expect(policyOf('PUT', '/api/player/:id/data')).toBe('api');
    expect(policyOf('POST', '/api/wallet/purchase')).toBe('api');
    expect(policyOf('GET', '/api/health')).toBe(false);
    expect(policyOf('GET', '/translate')).toBe(false);
  });
});

describe('room-code guessing behind one address (a NAT)', { timeout: 60_000 }, () => {
  let nat: TestServer;
  beforeAll(async () => {
    // only the lookup limits are low here: everyone comes from one address
    nat = await startServer({
      ROOM_LOOKUP_MISSES_PER_MINUTE: '2',
      ROOM_LOOKUP_MISSES_PER_MINUTE_PER_IP: '5',
    });
  }, 60_000);
  afterAll(() => nat.close());

  it("keeps the others on a guesser's address joining and creating rooms", async () => {
    const address = freshIp();
    const [host, guesser, second, third] = await Promise.all(
      Array.from({ length: 4 }, () => guestLogin(nat.app)),
    );
    const join = (who: GuestLoginResponse, code: string | null) =>
      nat.app.inject({
        method: 'POST',
        url: '/xtalk',
        headers: { authorization: `Bearer ${who.token}` },
        payload: { action: 'join', roomId: code },
        remoteAddress: address,
      });
    const { roomId } = (await join(host!, null)).json() as { roomId: string };
    const miss = async (who: GuestLoginResponse, code: string) =>
      expect((await join(who, code)).statusCode).toBe(404);
    await miss(guesser!, 'ZZZZZZZ');
    await miss(guesser!, 'YYYYYYY');
    expectLimited(await join(guesser!, roomId));
    // one guesser at their limit: everyone else on the address joins by code and creates rooms
    expect((await join(host!, roomId)).statusCode).toBe(200);
    expect((await join(host!, null)).statusCode).toBe(200);
    // more guessers bring the address to its own, higher limit ...
    await miss(second!, 'XXXXXXX');
    await miss(second!, 'WWWWWWW');
    await miss(third!, 'VVVVVVV');
    // ... which refuses those who missed themselves, even a right code
    expectLimited(await join(third!, roomId));
    // and never those who did not: a valid code, or a new room
    expect((await join(host!, roomId)).statusCode).toBe(200);
    expect((await join(host!, null)).statusCode).toBe(200);
  });
});

import { randomInt } from 'node:crypto';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/harness.js';

/*
 * `npm run test:services`: HTTP limits counted in Redis, so two nodes count together. Each node keeps its
 * own embedded database; only the counters are shared. Addresses are random per run: Redis keeps a
 * window's counters for a minute.
 */
const env = {
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  AUTH_SECRET: 'services-rate-limit-secret-shared-by-both-nodes',
  GUESTS_PER_MINUTE_PER_IP: '2',
};

describe('rate limits across two nodes (Redis)', { timeout: 60_000 }, () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.allSettled([a?.close(), b?.close()]);
  });

  async function guestAt(server: TestServer, remoteAddress: string) {
    const challengeResponse = await server.app.inject({ url: '/api/auth/botcheck', remoteAddress });
    const { challenge } = challengeResponse.json() as {
      challenge: Parameters<typeof solveChallenge>[0]['challenge'];
    };
    const solution = await solveChallenge({ challenge, deriveKey });
    const botcheck = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
    return server.app.inject({
      method: 'POST',
      url: '/api/auth/guest',
      payload: { botcheck },
      remoteAddress,
    });
  }

  it('counts guests from one address on both nodes together', async () => {
    const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
    expect((await guestAt(a, ip)).statusCode).toBe(200);
    expect((await guestAt(b, ip)).statusCode).toBe(200);
    const refused = await guestAt(a, ip);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await guestAt(b, ip)).statusCode).toBe(429);
  });
});

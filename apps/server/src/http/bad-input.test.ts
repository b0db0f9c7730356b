import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  exchangeBodySchema,
  guestLoginBodySchema,
  joinRoomBodySchema,
  putPlayerBodySchema,
  putPlayerDataBodySchema,
  updateUserBodySchema,
  type GuestLoginResponse,
} from '@xtalk/protocol';
import { buildApp } from '../app.js';
import { createTokens } from '../accounts/index.js';
import { loadConfig } from '../config.js';
import { guestLogin, startServer, type TestServer } from '../testing/harness.js';
import { memberLogin } from '../testing/members.js';
import { migratedSnapshot } from '../testing/migrated-database.js';
import { jsonProblem } from './body-guard.js';
import { INTERNAL_MESSAGE } from './error-handler.js';
import { storedRoomRows, storedUsers } from '../testing/seed/index.js';

/*
 * The HTTP bad-input corpus: junk bodies, wrong types, NUL, lone surrogates, deep nesting, oversized,
 * forged and expired tokens, listed and generated (fast-check). Each answer is a 4xx in the one error
 * shape, never a 5xx, and nothing stored changes.
 */

const SECRET = 'bad-input-secret-that-is-long-enough-to-sign';
let server: TestServer;
let member: GuestLoginResponse;
let guest: GuestLoginResponse;

beforeAll(async () => {
  server = await startServer({ AUTH_SECRET: SECRET, ROOM_LOOKUP_MISSES_PER_MINUTE: '100000' });
  member = await memberLogin(server, SECRET, 'bad-input-member', 'Mia');
  guest = await guestLogin(server.app);
}, 60_000);
afterAll(() => server.close());

/** Everything a request could change, as one comparable value. */
async function snapshot() {
  return { users: await storedUsers(server), ...(await storedRoomRows(server)) };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
async function send(
  method: Method,
  url: string,
  body: string | undefined,
  token?: string,
  type = 'application/json',
) {
  return server.app.inject({
    method,
    url,
    headers: {
      ...(body !== undefined ? { 'content-type': type } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body !== undefined ? { payload: body } : {}),
  });
}

function expectClientError(response: { statusCode: number; json(): unknown; body: string }, status?: number) {
  if (status) expect(response.statusCode, response.body).toBe(status);
  expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, response.body).toBeLessThan(500);
  const body = errorBodySchema.parse(response.json());
  expect(body.statusCode).toBe(response.statusCode);
  expect(body.message.length).toBeGreaterThan(0);
  expect(response.body).not.toMatch(/\bat .*\.(ts|js):\d+/); // no stack trace
}

const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('listed bad HTTP input', { timeout: 60_000 }, () => {
  it('answers every listed case with a 4xx in the one error shape and changes nothing', async () => {
    const before = await snapshot();
    const playerData = `/api/player/${member.user.userId}/data`;
    const cases: [Method, string, string | undefined, string | undefined, number, string?][] = [
      ['POST', '/api/auth/guest', '{', undefined, 400],
      ['POST', '/api/auth/guest', '', undefined, 400],
      ['POST', '/api/auth/guest', '[]', undefined, 400],
      ['POST', '/api/auth/guest', 'null', undefined, 400],
      ['POST', '/api/auth/guest', '{"botcheck":42}', undefined, 400],
      ['POST', '/api/auth/guest', '{"botcheck":"junk"}', undefined, 400],
      ['POST', '/api/auth/guest', '{"__proto__":{"x":1}}', undefined, 400],
      ['POST', '/api/auth/exchange', '{"token":"a\\u0000b"}', undefined, 400],
      ['POST', '/xtalk', '{"action":"join","roomId":"ABC\\u0000DEF"}', member.token, 400],
      ['POST', '/xtalk', '{"action":"join","roomId":{"$gt":""}}', member.token, 400],
      ['POST', '/xtalk', '{"action":"join","roomId":"ZZZZZZZ"}', member.token, 404],
      ['PUT', playerData, '{"data":{"note":"nul \\u0000 here"}}', member.token, 400],
      ['PUT', playerData, '{"data":{"k\\u0000ey":1}}', member.token, 400],
      ['PUT', playerData, '{"data":{"broken":"\\ud800"}}', member.token, 400],
      ['PUT', playerData, '{"data":{"broken":"x\\udfff"}}', member.token, 400],
      ['PUT', playerData, `{"data":${nested(5000)}}`, member.token, 400],
      ['PUT', playerData, `{"data":${nested(40)}}`, member.token, 400],
      ['PUT', playerData, '{"data":[1,2]}', member.token, 400],
      ['PUT', playerData, '{"data":{}}', guest.token, 403],
      ['PUT', '/api/player', '{"id":"x","name":"\\u0000"}', member.token, 400],
      ['PATCH', '/users', '{"name":"mia\\u0000"}', member.token, 400],
      ['PATCH', '/users', '{"name":"mia","fullName":"\\ud83d"}', member.token, 400],
      ['PATCH', '/users', '{"name":7}', member.token, 400],
      ['GET', '/api/me', undefined, 'forged.token.value', 401],
      ['GET', '/api/me', undefined, `${member.token}x`, 401],
      ['POST', '/api/auth/guest', 'botcheck=1', undefined, 415, 'application/x-www-form-urlencoded'],
      ['POST', '/api/auth/guest', '\u0000\u0001\u00ff', undefined, 415, 'application/octet-stream'],
      ['POST', '/api/auth/guest', '{"botcheck":"x"}', undefined, 400, 'text/plain'],
    ];
    for (const [method, url, body, token, status, type] of cases) {
      const response = await send(method, url, body, token, type);
      expectClientError(response, status);
    }
    expect(await snapshot()).toEqual(before);
  }, 60_000);

  it('refuses a body over the size limit with 413', async () => {
    const response = await send(
      'POST',
      '/api/auth/guest',
      JSON.stringify({ botcheck: 'x'.repeat(2 * 1024 * 1024) }),
    );
    expectClientError(response, 413);
  }, 60_000);

  it('refuses an expired token with 401 and says so', async () => {
    const past = Date.now() - 2 * 43_200_000;
    const { token } = await createTokens(SECRET, 43_200, { now: () => past }).sign({
      userId: member.user.userId,
      provider: 'ggl',
      platformPlayerId: 'bad-input-member',
    });
    const response = await send('GET', '/api/me', undefined, token);
    expectClientError(response, 401);
    expect(response.json()).toMatchObject({ message: 'Token has expired.' });
  }, 60_000);
});

describe('generated bad HTTP input (fast-check)', { timeout: 60_000 }, () => {
  /** Strings rich in what breaks things: NUL, lone surrogates, zero-width and bidi characters. */
  const nasty = fc.string({
    unit: fc.oneof(
      fc.constantFrom('\u0000', '\uD800', '\uDFFF', '\u200B', '\u202E', '\uFEFF', '"', '\\', '{'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
    maxLength: 40,
  });
  const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      nasty,
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(nasty, tie('value'), { maxKeys: 4 }),
    ),
  })).value;

  const routes: {
    method: Method;
    url: () => string;
    token?: () => string;
    schema: { safeParse(v: unknown): { success: boolean } };
  }[] = [
    { method: 'POST', url: () => '/api/auth/guest', schema: guestLoginBodySchema },
    { method: 'POST', url: () => '/api/auth/exchange', schema: exchangeBodySchema },
    { method: 'POST', url: () => '/xtalk', token: () => member.token, schema: joinRoomBodySchema },
    { method: 'PATCH', url: () => '/users', token: () => member.token, schema: updateUserBodySchema },
    { method: 'PUT', url: () => '/api/player', token: () => member.token, schema: putPlayerBodySchema },
    {
      method: 'PUT',
      url: () => `/api/player/${member.user.userId}/data`,
      token: () => member.token,
      schema: putPlayerDataBodySchema,
    },
  ];

  it('never answers a generated body with a 5xx, always in the one shape, and stores nothing', async () => {
    const before = await snapshot();
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            // bodies the route's schema refuses (wrong types, missing fields, junk)
            value.filter((body) => !route.schema.safeParse(body).success),
            // bodies of the right shape carrying NUL or a lone surrogate somewhere
            fc
              .record({
                botcheck: nasty,
                token: nasty,
                action: fc.constant('join'),
                roomId: nasty,
                name: nasty,
                id: nasty,
                data: fc.dictionary(nasty, nasty),
              })
              .filter((body) => jsonProblem(body) !== undefined),
            // not JSON at all
            nasty.map((text) => ({ raw: text })),
          ),
          async (body) => {
            const raw =
              typeof body === 'object' && body !== null && 'raw' in body
                ? String((body as { raw: string }).raw)
                : JSON.stringify(body);
            const response = await send(route.method, route.url(), raw, route.token?.());
            expect(response.statusCode, `${route.method} ${route.url()} ${raw}`).toBeLessThan(500);
            if (response.statusCode >= 400) expectClientError(response);
          },
        ),
        { numRuns: 40, seed: 16 },
      );
    }
    expect(await snapshot()).toEqual(before);
  }, 60_000);
});

describe('the error handler', { timeout: 60_000 }, () => {
  it('answers an unexpected failure with 500, a fixed message and no stack', async () => {
    const dataDir = (await import('node:os')).tmpdir();
    const app = await buildApp({
      config: loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        AI_PROVIDER: 'fake',
        AUTH_SECRET: SECRET,
      }),
      inMemoryDb: true,
      databaseSnapshot: await migratedSnapshot(),
      logger: false,
      webRoot: '/nonexistent',
    });
    try {
      app.get('/api/test/boom', async () => {
        throw new Error('secret internals: password=hunter2');
      });
      const response = await app.inject({ url: '/api/test/boom' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        statusCode: 500,
        error: 'Internal Server Error',
        message: INTERNAL_MESSAGE,
      });
    } finally {
      await app.close();
    }
  }, 60_000);
});

import { errorBodySchema } from '@xtalk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/harness.js';

/*
 * The contract, route by route, read from the published document: a request that breaks its schema gets
 * one of the statuses the document lists for it, in the one error shape, from a caller holding every key.
 * (Every answer of every route test is already checked against its documented schema and written by the
 * writer compiled from it: an answer outside it is a 500 in tests, decision 0253.)
 */

const SERVER_KEY = 'contract-server-key-0123456789';
const ADMIN_KEY = 'contract-admin-key-0123456789';

interface Operation {
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: unknown;
  security?: unknown[];
  responses: Record<string, unknown>;
}
type Paths = Record<string, Record<string, Operation>>;

describe('every documented route against its own schema', () => {
  let server: TestServer;
  let paths: Paths;
  let headers: Record<string, string>;
  let roomId: string;
  beforeAll(async () => {
    server = await startServer({ PAYMENT_SERVER_KEY: SERVER_KEY, ADMIN_API_KEY: ADMIN_KEY });
    const { app } = server;
    paths = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json().paths;
    const user = await app.xtalkAuth.users.findOrCreateOidcUser({
      issuer: 'https://idp.contract.test',
      subject: 'contract',
      name: 'Contract Tester',
    });
    const { token } = await app.xtalkAuth.tokens.sign({
      userId: user.id,
      provider: user.provider,
      platformPlayerId: user.subject,
    });
    const bearer = { authorization: `Bearer ${token}` };
    const joined = await app.inject({
      method: 'POST',
      url: '/xtalk',
      headers: bearer,
      payload: { action: 'join', roomId: null },
    });
    roomId = joined.json().roomId;
    headers = { ...bearer, 'x-server-key': SERVER_KEY };
  }, 60_000);
  afterAll(() => server.close());

  /** A path with its parameters filled: the room the caller is in, `x` elsewhere. */
  const filled = (path: string) =>
    path.replace(/\{(\w+)\}/g, (_all, name: string) => (name === 'roomId' ? roomId : 'x'));

  it('refuses a body or query that breaks the schema with a documented 400 in the error shape', async () => {
    const checked: string[] = [];
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const requiredQuery = (operation.parameters ?? []).some((p) => p.in === 'query' && p.required);
        if (!operation.requestBody && !requiredQuery) continue;
        // the player service reads the admin key first: both callers are tried there
        const withAdmin = path.startsWith('/api/player') || path.startsWith('/api/purchases');
        const response = await server.app.inject({
          method: method.toUpperCase() as 'GET',
          url: filled(path),
          headers: withAdmin ? { ...headers, 'x-admin-key': ADMIN_KEY } : headers,
          // an array where every body is an object; no query at all where one is required
          ...(operation.requestBody ? { payload: [1] } : {}),
        });
        const what = `${method.toUpperCase()} ${path}: ${response.body}`;
        expect(response.statusCode, what).toBe(400);
        expect(Object.keys(operation.responses), what).toContain('400');
        expect(errorBodySchema.strict().safeParse(response.json()).success, what).toBe(true);
        checked.push(`${method} ${path}`);
      }
    }
    expect(checked.length).toBeGreaterThan(40);
  });

  it('refuses a caller without its key or token before reading the body, as documented', async () => {
    let checked = 0;
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation.security?.length || !operation.requestBody) continue;
        const response = await server.app.inject({
          method: method.toUpperCase() as 'POST',
          url: filled(path),
          payload: [1],
        });
        const what = `${method.toUpperCase()} ${path}: ${response.body}`;
        expect(response.statusCode, what).toBe(401);
        expect(Object.keys(operation.responses), what).toContain('401');
        expect(errorBodySchema.strict().safeParse(response.json()).success, what).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});

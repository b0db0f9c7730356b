import { checkAnswers } from '@xtalk/service-base';
import { SignJWT } from 'jose';
import { expect } from 'vitest';
import type { UsersPort } from '../ports.js';
import { buildPaymentService, loadStandaloneSettings, type PaymentService } from '../standalone/index.js';
import { migratedSnapshot } from './migrated-database.js';

/*
 * The payment service for tests: the standalone build on real Fastify and PGlite in memory (or
 * DATABASE_URL), its own ledger with XTalk's daily allowance as an opening grant, and a users port
 * that knows the players a test made. Players sign in with session tokens as XTalk's server signs them.
 */

export const AUTH_SECRET = 'payments-test-secret-that-is-long-enough';
export const SERVER_KEY = 'payment-server-key-for-tests';
export const ADMIN_KEY = 'payment-admin-key-for-tests';
/** What a new XTalk member has before buying anything. */
export const OPENING_FREE = 1000;

export type TestService = PaymentService & { players: Set<string> };

/** `env`: the service's settings by their environment names, over the tests' defaults. */
export async function startPaymentServer(env: Record<string, string> = {}): Promise<TestService> {
  const players = new Set<string>();
  const users: UsersPort = { exists: async (id) => players.has(id) };
  const settings = loadStandaloneSettings({
    NODE_ENV: 'test',
    AUTH_SECRET,
    PAYMENT_SERVER_KEY: SERVER_KEY,
    ADMIN_API_KEY: ADMIN_KEY,
    OPENING_FREE_CREDITS: String(OPENING_FREE),
    ...env,
  });
  const service = await buildPaymentService(settings, {
    users,
    logger: false,
    // every answer is checked against its schema and its compiled writer (decision 0253)
    onRoute: checkAnswers,
    // a new embedded database starts with the service's tables made (testing/migrated-database.ts)
    databaseSnapshot: settings.DATABASE_URL ? undefined : await migratedSnapshot(),
  });
  return { ...service, players };
}

/** A session token as XTalk's server signs it. */
export function sessionToken(userId: string, provider = 'email', expiresIn = '1h'): Promise<string> {
  return new SignJWT({ provider, ppid: userId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuer('xtalk')
    .setAudience('xtalk-session')
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(AUTH_SECRET));
}

let made = 0;
/** A player the users port knows; returns its gctId. */
export function newPlayer(server: TestService): string {
  made += 1;
  const id = `player-${made}-${Date.now()}`;
  server.players.add(id);
  return id;
}

/** A signed-in member: its id and the bearer header of its session. */
export async function member(server: TestService, provider = 'email') {
  const id = newPlayer(server);
  return { id, headers: { authorization: `Bearer ${await sessionToken(id, provider)}` } };
}

type Method = 'GET' | 'POST' | 'DELETE';

/** A call with the server key (or `headers` replacing it). */
export function call(
  server: TestService,
  method: Method,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = { 'x-server-key': SERVER_KEY },
) {
  return server.app.inject({
    method,
    url,
    headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

export const asAdmin = { 'x-admin-key': ADMIN_KEY };

/** Every stored row the payment service could change, to compare before and after a refused call. */
export async function snapshot(server: TestService): Promise<unknown> {
  const tables = [
    'store_purchases',
    'payment_ledger',
    'payment_txns',
    'credit_withdraw_requests',
    'credit_orders',
  ];
  const result: Record<string, unknown> = {};
  for (const table of tables) {
    result[table] = (await server.db.query(`select * from ${table} order by 1`)).rows;
  }
  return result;
}

/** Neither part of the balance is below zero, and the balance is the sum of the account's rows. */
export async function expectBalanced(server: TestService, gctId: string): Promise<void> {
  const balance = await server.ledger.balance(gctId);
  const { rows } = await server.db.query<{ free: string | null; premium: string | null }>(
    'select sum(free_delta) as free, sum(premium_delta) as premium from payment_ledger where user_id = $1',
    [gctId],
  );
  expect(balance).toEqual({ free: Number(rows[0]?.free ?? 0), premium: Number(rows[0]?.premium ?? 0) });
  expect(balance.free).toBeGreaterThanOrEqual(0);
  expect(balance.premium).toBeGreaterThanOrEqual(0);
}

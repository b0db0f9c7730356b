import { expect } from 'vitest';
import { createLedger } from '../../credits/index.js';
import { startServer, type TestServer } from '../../test/harness.js';
import { memberLogin } from '../../test/members.js';
import { dbOf } from '../../test/seed.js';

/*
 * The real app for payment tests, with the keys set, and what those tests check after every call: the
 * stored rows (so an error can be shown to change nothing) and each balance against the sum of its rows.
 */

export const AUTH_SECRET = 'payments-test-secret-that-is-long-enough';
export const SERVER_KEY = 'payment-server-key-for-tests';
export const ADMIN_KEY = 'payment-admin-key-for-tests';

export async function startPaymentServer(env: Record<string, string> = {}): Promise<TestServer> {
  return startServer({
    AUTH_SECRET,
    PAYMENT_SERVER_KEY: SERVER_KEY,
    ADMIN_API_KEY: ADMIN_KEY,
    ...env,
  });
}

export { dbOf };

let members = 0;
/** A signed-in player; returns its gctId. */
export async function newPlayer(server: TestServer): Promise<string> {
  members += 1;
  const login = await memberLogin(server, AUTH_SECRET, `payments-member-${members}-${Date.now()}`);
  return login.user.userId;
}

type Method = 'GET' | 'POST' | 'DELETE';

/** A call with the server key (or `headers` replacing it). */
export function call(
  server: TestServer,
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
export async function snapshot(server: TestServer): Promise<unknown> {
  const db = dbOf(server);
  const tables = [
    'store_purchases',
    'credit_txns',
    'credit_accounts',
    'payment_txns',
    'credit_withdraw_requests',
  ];
  const result: Record<string, unknown> = {};
  for (const table of tables) {
    result[table] = (await db.query(`select * from ${table} order by 1`)).rows;
  }
  return result;
}

/** The stored balance equals the sum of the account's rows, neither part below zero. */
export async function expectBalanced(server: TestServer, gctId: string): Promise<void> {
  const ledger = createLedger({ db: dbOf(server), clock: { now: Date.now }, dailyAllowance: () => 0 });
  const { stored, sum } = await ledger.audit(gctId);
  expect(stored).toEqual(sum);
  expect(stored.free).toBeGreaterThanOrEqual(0);
  expect(stored.premium).toBeGreaterThanOrEqual(0);
}

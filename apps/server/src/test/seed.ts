import { expect } from 'vitest';
import type { Db } from '../store/db.js';
import type { TestServer } from './harness.js';

/*
 * The one door tests have into a running app's tables, for state no API writes yet and for checks no API
 * answers. Everything else goes through the modules' own APIs (`server.app.xtalkAuth`, `xtalkRooms`,
 * `xtalkCredits`, ...) or through HTTP and sockets as the browser does.
 */

/** The app's own database (never a second connection). */
export const dbOf = (server: TestServer): Db => server.app.xtalkDb;

/** A user's id in the database (a login answer names the user, not the row). */
export async function userIdOf(server: TestServer, username: string): Promise<string> {
  const { rows } = await dbOf(server).query<{ id: string }>('select id from users where username = $1', [
    username,
  ]);
  return rows[0]!.id;
}

/** Forgets a room session as its expiry does, leaving what a join handed over. */
export async function forgetSession(server: TestServer, sessionId: string): Promise<void> {
  await dbOf(server).query('delete from sessions where id = $1', [sessionId]);
}

/** A user's display name set apart from the username, as some providers leave it (no API does). */
export async function setDisplayName(server: TestServer, userId: string, name: string | null): Promise<void> {
  await dbOf(server).query('update users set display_name = $2 where id = $1', [userId, name]);
}

/** Marks a user merged into another without moving anything: its tokens must sign no one in. */
export async function markMerged(server: TestServer, fromId: string, intoId: string): Promise<void> {
  await dbOf(server).query('update users set merged_into = $2 where id = $1', [fromId, intoId]);
}

/** The PKCE verifier a Google sign-in flow keeps on the server (the browser never sees it). */
export async function flowVerifierOf(server: TestServer, state: string): Promise<string | undefined> {
  const { rows } = await dbOf(server).query<{ code_verifier: string }>(
    'select code_verifier from auth_flows where state = $1',
    [state],
  );
  return rows[0]?.code_verifier;
}

/** Swaps a pending flow's PKCE verifier, as an attacker holding a stolen code would have to. */
export async function swapFlowVerifier(server: TestServer, state: string, verifier: string): Promise<void> {
  await dbOf(server).query('update auth_flows set code_verifier = $2 where state = $1', [state, verifier]);
}

/** Every account's balance equals the sum of its rows, and no part is below zero. */
export async function expectBalancesEqualSumOfRows(db: Db): Promise<void> {
  const { rows } = await db.query<{ user_id: string; free: string; premium: string; sf: string; sp: string }>(
    `select a.user_id, a.free, a.premium, coalesce(sum(t.free_delta), 0) as sf,
            coalesce(sum(t.premium_delta), 0) as sp
       from credit_accounts a left join credit_txns t on t.user_id = a.user_id
      group by a.user_id, a.free, a.premium`,
  );
  for (const row of rows) {
    expect({ free: Number(row.free), premium: Number(row.premium) }, `account ${row.user_id}`).toEqual({
      free: Number(row.sf),
      premium: Number(row.sp),
    });
    expect(Number(row.free)).toBeGreaterThanOrEqual(0);
    expect(Number(row.premium)).toBeGreaterThanOrEqual(0);
  }
}

import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Db } from '../../store/index.js';

/*
 * The short-lived state of signing in, in the database so that any node can finish what another began:
 * OIDC authorisation requests in flight (state, nonce, PKCE verifier) and the one-time codes the browser
 * carries to /auth/{code}. Both are taken with `delete … returning`, so each is used at most once even when
 * two nodes race, and both expire by the injected clock.
 */

export interface PendingFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  /** Hash of the random value in the browser's cookie: the callback must come from the same browser. */
  browserHash: string;
}

export const hashSecret = (value: string) => createHash('sha256').update(value).digest('base64url');

export function createSignInStore(db: Db, clock: Clock) {
  return {
    async saveFlow(flow: PendingFlow, ttlSeconds: number): Promise<void> {
      await db.query(
        `insert into auth_flows (state, nonce, code_verifier, redirect_uri, browser_hash, expires_at)
         values ($1, $2, $3, $4, $5, $6)`,
        [
          flow.state,
          flow.nonce,
          flow.codeVerifier,
          flow.redirectUri,
          flow.browserHash,
          new Date(clock.now() + ttlSeconds * 1000),
        ],
      );
    },

    /** The flow of this state, removed so it cannot be used again; undefined when unknown or expired. */
    async takeFlow(state: string): Promise<PendingFlow | undefined> {
      const { rows } = await db.query<{
        state: string;
        nonce: string;
        code_verifier: string;
        redirect_uri: string;
        browser_hash: string;
        expires_at: Date;
      }>('delete from auth_flows where state = $1 returning *', [state]);
      const row = rows[0];
      if (!row || new Date(row.expires_at).getTime() <= clock.now()) return undefined;
      return {
        state: row.state,
        nonce: row.nonce,
        codeVerifier: row.code_verifier,
        redirectUri: row.redirect_uri,
        browserHash: row.browser_hash,
      };
    },

    /** A fresh one-time code for this user; only its hash is stored. */
    async issueCode(userId: string, ttlSeconds: number): Promise<string> {
      const code = randomBytes(32).toString('base64url');
      await db.query('insert into auth_codes (code_hash, user_id, expires_at) values ($1, $2, $3)', [
        hashSecret(code),
        userId,
        new Date(clock.now() + ttlSeconds * 1000),
      ]);
      return code;
    },

    /** The user a code was issued to, consuming the code; undefined when unknown, used or expired. */
    async redeemCode(code: string): Promise<string | undefined> {
      const { rows } = await db.query<{ user_id: string; expires_at: Date }>(
        'delete from auth_codes where code_hash = $1 returning user_id, expires_at',
        [hashSecret(code)],
      );
      const row = rows[0];
      if (!row || new Date(row.expires_at).getTime() <= clock.now()) return undefined;
      return row.user_id;
    },
  };
}
export type SignInStore = ReturnType<typeof createSignInStore>;

import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Db } from '../../store/index.js';
import type { SessionEnds } from './ended-sessions.js';
import type { TokenClaims, Tokens } from './tokens.js';

/*
 * Sessions that end (docs/decisions/0195-sessions-that-end.md). Every token names a row of
 * sign_in_sessions (its `sid`); a request's user is read only while that row exists (users-repo
 * findSignedIn), in the statement that reads the user anyway. Ending a session deletes its row, so its
 * token is refused at the next request on every node, and tells the nodes to close its sockets. Tokens
 * made before sessions were stored name no row: they live until the player's sessions are first ended.
 */

export function createSignInSessions(db: Db, tokens: Tokens, clock: Clock, ends: SessionEnds) {
  /** Ends every session of the player but `keep`, row-less tokens included, then tells the nodes. */
  async function endAllBut(userId: string, keep: string | undefined): Promise<void> {
    await db.transaction(async (tx) => {
      await tx.query('delete from sign_in_sessions where user_id = $1 and id is distinct from $2', [
        userId,
        keep ?? null,
      ]);
      await tx.query('update users set sessions_ended_at = $2 where id = $1', [
        userId,
        new Date(clock.now()),
      ]);
    });
    await ends.announce({ userId, ...(keep ? { keep } : {}) });
  }

  return {
    /** Tokens whose every signature opens a session first (what the sign-in routes sign with). */
    tokens: {
      verify: tokens.verify,
      async sign(claims: Omit<TokenClaims, 'expiresAt' | 'sessionId'>) {
        const sessionId = randomBytes(16).toString('base64url');
        const signed = await tokens.sign({ ...claims, sessionId });
        await db.query('insert into sign_in_sessions (id, user_id, expires_at) values ($1, $2, $3)', [
          sessionId,
          claims.userId,
          new Date(signed.expiresAt * 1000),
        ]);
        return signed;
      },
    } satisfies Tokens,

    /** Sign-out: the session of these claims ends (without a row: the player's tokens without one). */
    async end(claims: Pick<TokenClaims, 'userId' | 'sessionId'>): Promise<void> {
      const { userId, sessionId } = claims;
      if (sessionId) await db.query('delete from sign_in_sessions where id = $1', [sessionId]);
      else
        await db.query('update users set sessions_ended_at = $2 where id = $1', [
          userId,
          new Date(clock.now()),
        ]);
      await ends.announce({ userId, only: sessionId ?? null });
    },

    /** Sign out everywhere, a reset password, a merged player: every session of the player ends. */
    endAll: (userId: string) => endAllBut(userId, undefined),

    /** A changed password, an unlinked sign-in: every session of the player but the caller's ends. */
    endOthers: (caller: Pick<TokenClaims, 'userId' | 'sessionId'>) =>
      endAllBut(caller.userId, caller.sessionId),
  };
}
export type SignInSessions = ReturnType<typeof createSignInSessions>;

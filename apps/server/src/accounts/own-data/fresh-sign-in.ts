import { FRESH_SIGN_IN_SECONDS } from '@xtalk/protocol';
import type { Clock } from '../../clock.js';
import { HttpError } from '../../http-errors.js';
import type { Db } from '../../store/index.js';
import type { TokenClaims } from '../sessions/tokens.js';
import { verifyPassword } from '../sign-in/email/passwords.js';

/*
 * Deleting an account is undone by nothing, so a token alone is not enough: a stolen or forgotten-open
 * session must not be able to do it (docs/decisions/0215-deletion-needs-a-fresh-sign-in.md). The
 * session must have been opened within FRESH_SIGN_IN_SECONDS, or the body must carry the password of
 * the player's email sign-in.
 */

const FRESH_MINUTES = FRESH_SIGN_IN_SECONDS / 60;

/** Whether the session of these claims was opened within FRESH_SIGN_IN_SECONDS of now. */
async function isFresh(db: Db, clock: Clock, claims: Pick<TokenClaims, 'sessionId'>): Promise<boolean> {
  if (!claims.sessionId) return false;
  const { rows } = await db.query<{ created_at: Date | string }>(
    'select created_at from sign_in_sessions where id = $1',
    [claims.sessionId],
  );
  const opened = rows[0] ? new Date(rows[0].created_at).getTime() : 0;
  return clock.now() - opened <= FRESH_SIGN_IN_SECONDS * 1000;
}

/** Whether `password` is that of one of the player's confirmed email sign-ins. */
async function isTheirPassword(db: Db, userId: string, password: string): Promise<boolean> {
  const { rows } = await db.query<{ password_hash: string }>(
    'select password_hash from email_accounts where user_id = $1 and verified_at is not null',
    [userId],
  );
  for (const row of rows) {
    if (await verifyPassword(password, row.password_hash)) return true;
  }
  return false;
}

/** Throws a 403 that says what to do unless the caller signed in just now or gave their password. */
export async function requireFreshSignIn(
  db: Db,
  clock: Clock,
  claims: Pick<TokenClaims, 'userId' | 'sessionId'>,
  password: string | undefined,
): Promise<void> {
  if (password !== undefined) {
    if (await isTheirPassword(db, claims.userId, password)) return;
    throw new HttpError(403, 'The password is wrong: the account was not deleted.', 'wrong_password');
  }
  if (await isFresh(db, clock, claims)) return;
  throw new HttpError(
    403,
    `Deleting your account needs a recent sign-in: sign in again and delete it within ${FRESH_MINUTES} minutes, or give your password.`,
    'fresh_sign_in_required',
  );
}

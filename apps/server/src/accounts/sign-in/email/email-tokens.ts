import { randomBytes } from 'node:crypto';
import type { Clock } from '../../../clock.js';
import type { Db } from '../../../store/db.js';
import { hashSecret } from '../../sessions/sign-in-store.js';

/*
 * The single-use links of email accounts (email-accounts.ts): a random token mailed out and stored only as
 * a hash, with an expiry, and taken with `delete … returning` so each works once.
 */

export type EmailTokenPurpose = 'verify' | 'reset';

/** A fresh token for `email`, valid `ttlSeconds`; only its hash is stored. */
export async function issueEmailToken(
  db: Db,
  clock: Clock,
  email: string,
  purpose: EmailTokenPurpose,
  ttlSeconds: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    'insert into email_tokens (token_hash, email, purpose, expires_at) values ($1, $2, $3, $4)',
    [hashSecret(token), email, purpose, new Date(clock.now() + ttlSeconds * 1000)],
  );
  return token;
}

/** The address a token was issued to, consuming it; undefined when unknown, used or expired. */
export async function takeEmailToken(
  db: Db,
  clock: Clock,
  token: string,
  purpose: EmailTokenPurpose,
): Promise<string | undefined> {
  const { rows } = await db.query<{ email: string; expires_at: Date }>(
    'delete from email_tokens where token_hash = $1 and purpose = $2 returning email, expires_at',
    [hashSecret(token), purpose],
  );
  const row = rows[0];
  if (!row || new Date(row.expires_at).getTime() <= clock.now()) return undefined;
  return row.email;
}

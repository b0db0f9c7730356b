import { randomBytes } from 'node:crypto';
import type { Clock } from '../../../clock.js';
import type { Queryable } from '../../../store/index.js';
import { hashSecret } from '../../sessions/sign-in-store.js';

/*
 * The single-use links of email accounts (email-accounts.ts): a random token mailed out and stored only as
 * a hash, with an expiry, and taken with `delete … returning` so each works once. A verification token
 * carries the claim of the request that mailed it (who asked, the password given): opening it binds that
 * claim and no other.
 */

export type EmailTokenPurpose = 'verify' | 'reset';

/** What a registration asked for: bound to the address only by opening its own link. */
export interface EmailClaim {
  /** The player who asked (signed in, or a guest); null: a new player. */
  pendingUserId: string | null;
  passwordHash: string;
}

type Db = Pick<Queryable, 'query'>;

/** A fresh token for `email`, valid `ttlSeconds`; only its hash is stored, with the claim it confirms. */
export async function issueEmailToken(
  db: Db,
  clock: Clock,
  email: string,
  purpose: EmailTokenPurpose,
  ttlSeconds: number,
  claim?: EmailClaim,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `insert into email_tokens (token_hash, email, purpose, expires_at, pending_user_id, password_hash)
     values ($1, $2, $3, $4, $5, $6)`,
    [
      hashSecret(token),
      email,
      purpose,
      new Date(clock.now() + ttlSeconds * 1000),
      claim?.pendingUserId ?? null,
      claim?.passwordHash ?? null,
    ],
  );
  return token;
}

interface TokenRow {
  email: string;
  expires_at: Date;
  pending_user_id: string | null;
  password_hash: string | null;
}

const claimOf = (row: TokenRow): EmailClaim | undefined =>
  row.password_hash ? { pendingUserId: row.pending_user_id, passwordHash: row.password_hash } : undefined;

/**
 * The address a token was issued to and the claim it carries, consuming it; undefined when unknown,
 * used or expired.
 */
export async function takeEmailToken(
  db: Db,
  clock: Clock,
  token: string,
  purpose: EmailTokenPurpose,
): Promise<{ email: string; claim: EmailClaim | undefined } | undefined> {
  // an expired token stays (until the sweeper's turn): a resend mails its claim again
  const { rows } = await db.query<TokenRow>(
    `delete from email_tokens where token_hash = $1 and purpose = $2 and expires_at > $3
     returning email, expires_at, pending_user_id, password_hash`,
    [hashSecret(token), purpose, new Date(clock.now())],
  );
  const row = rows[0];
  return row && { email: row.email, claim: claimOf(row) };
}

/** The latest claim mailed for `email` (live or not), the one a resend mails again. */
export async function latestClaim(db: Db, email: string): Promise<EmailClaim | undefined> {
  const { rows } = await db.query<TokenRow>(
    `select email, expires_at, pending_user_id, password_hash from email_tokens
     where email = $1 and purpose = 'verify' order by expires_at desc limit 1`,
    [email],
  );
  return rows[0] && claimOf(rows[0]);
}

/** Voids every mailed token of `purpose` for `email` (a replaced claim, a bound address, a reset). */
export async function voidEmailTokens(db: Db, email: string, purpose: EmailTokenPurpose): Promise<void> {
  await db.query('delete from email_tokens where email = $1 and purpose = $2', [email, purpose]);
}

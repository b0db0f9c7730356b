import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../../clock.js';
import { HttpError } from '../../../http-errors.js';
import type { Db } from '../../../store/db.js';
import { MAIL_LIMIT, PASSWORD_LIMIT, type AttemptLimits } from '../attempt-limits.js';
import { issueEmailToken, takeEmailToken, type EmailTokenPurpose } from './email-tokens.js';
import { accountMails } from './account-mails.js';
import type { Mailer } from './mailer.js';
import { decoyHash, hashPassword, verifyPassword } from './passwords.js';
import type { PlayerLinks } from '../../links/player-links.js';
import type { UserRow, UsersRepo } from '../../users/users-repo.js';

/*
 * Email accounts: register, verify, login, forgot, reset, resend and password change. Rules that a
 * newcomer might question (docs/decisions/0051-email-accounts.md):
 * - No answer tells whether an address is registered: register, forgot and resend answer the same words
 *   either way, and mails go out in the background so the answer takes the same time.
 * - Verification and reset tokens are random, stored only as a hash, expire, and are taken with
 *   `delete … returning`, so each works once (email-tokens.ts).
 * - An email account is linked to a player when its address is verified: the player who asked for it
 *   (signed in, or a guest who keeps their player), else a new one.
 */

const VERIFY_TTL_SECONDS = 24 * 3600;
const RESET_TTL_SECONDS = 3600;

export const MAIL_SENT_MESSAGE =
  'If the address can receive mail, a message is on its way. Open the link in it to continue.';

interface AccountRow {
  email: string;
  user_id: string | null;
  pending_user_id: string | null;
  password_hash: string;
  verified_at: Date | null;
}

export interface EmailAccountsDeps {
  db: Db;
  clock: Clock;
  users: UsersRepo;
  links: PlayerLinks;
  limits: AttemptLimits;
  mailer: Mailer;
  logger: FastifyBaseLogger;
}

/** Marks the address verified and links it to its player; returns that player. */
async function completeEmailVerification(
  { db, clock, users, links }: EmailAccountsDeps,
  row: AccountRow,
): Promise<UserRow> {
  const existing = row.user_id ? await users.findById(row.user_id) : undefined;
  if (existing && row.verified_at) return existing;
  const identity = { provider: 'email' as const, subject: row.email };
  const pending = row.pending_user_id ? await users.findById(row.pending_user_id) : undefined;
  let user: UserRow;
  if (pending) {
    await links.link(pending.id, identity);
    user = (await users.findById(pending.id))!;
  } else {
    user = await links.findOrCreate(identity);
  }
  await db.query(
    'update email_accounts set user_id = $2, verified_at = coalesce(verified_at, $3) where email = $1',
    [row.email, user.id, new Date(clock.now())],
  );
  return user;
}

/** A new password for a player's verified email sign-in, given the current one. */
async function changePassword(
  { db, limits }: EmailAccountsDeps,
  user: UserRow,
  password: string,
  newPassword: string,
  ip: string,
): Promise<void> {
  const { rows } = await db.query<AccountRow>(
    'select * from email_accounts where user_id = $1 and verified_at is not null',
    [user.id],
  );
  const row = rows[0];
  if (!row)
    throw new HttpError(
      400,
      'This player has no email sign-in, so there is no password to change.',
      'no_password',
    );
  await limits.assertUnder(PASSWORD_LIMIT, row.email, ip);
  if (!(await verifyPassword(password, row.password_hash))) {
    await limits.record(PASSWORD_LIMIT, row.email, ip);
    throw new HttpError(403, 'The current password is wrong.', 'wrong_password');
  }
  await db.query('update email_accounts set password_hash = $2 where email = $1', [
    row.email,
    await hashPassword(newPassword),
  ]);
}

export function createEmailAccounts(deps: EmailAccountsDeps) {
  const { db, clock } = deps;

  async function account(email: string): Promise<AccountRow | undefined> {
    const { rows } = await db.query<AccountRow>('select * from email_accounts where email = $1', [email]);
    return rows[0];
  }

  const issueToken = (email: string, purpose: EmailTokenPurpose, ttlSeconds: number) =>
    issueEmailToken(db, clock, email, purpose, ttlSeconds);
  const takeToken = (token: string, purpose: EmailTokenPurpose) => takeEmailToken(db, clock, token, purpose);

  const mails = accountMails(deps.mailer, deps.logger);
  const mailVerification = async (email: string, baseUrl: string) =>
    mails.verification(email, baseUrl, await issueToken(email, 'verify', VERIFY_TTL_SECONDS));

  const completeVerification = (row: AccountRow) => completeEmailVerification(deps, row);

  return {
    async register(email: string, password: string, ip: string, baseUrl: string, requester?: UserRow) {
      await deps.limits.take(MAIL_LIMIT, email, ip);
      const passwordHash = await hashPassword(password);
      const { rows } = await db.query(
        `insert into email_accounts (email, pending_user_id, password_hash) values ($1, $2, $3)
         on conflict (email) do nothing returning email`,
        [email, requester?.id ?? null, passwordHash],
      );
      if (rows[0]) return mailVerification(email, baseUrl);
      const row = await account(email);
      // unverified: a fresh link, the first password stands (a second register must not replace it)
      if (row && !row.verified_at) return mailVerification(email, baseUrl);
      mails.alreadyRegistered(email, baseUrl);
    },

    async verify(token: string): Promise<UserRow> {
      const email = await takeToken(token, 'verify');
      const row = email ? await account(email) : undefined;
      if (!row) throw new HttpError(400, 'This link is invalid, expired or already used.', 'invalid_link');
      return completeVerification(row);
    },

    async resend(email: string, ip: string, baseUrl: string): Promise<void> {
      await deps.limits.take(MAIL_LIMIT, email, ip);
      const row = await account(email);
      if (row && !row.verified_at) await mailVerification(email, baseUrl);
    },

    async login(email: string, password: string, ip: string): Promise<UserRow> {
      await deps.limits.assertUnder(PASSWORD_LIMIT, email, ip);
      const row = await account(email);
      // an unknown address costs the same hash as a known one
      const matches = await verifyPassword(password, row?.password_hash ?? (await decoyHash()));
      if (!row || !matches) {
        await deps.limits.record(PASSWORD_LIMIT, email, ip);
        throw new HttpError(401, 'The email or the password is wrong.', 'wrong_credentials');
      }
      if (!row.verified_at) {
        throw new HttpError(
          403,
          'Confirm your email first: open the link we sent you, or ask for a new one.',
          'email_not_verified',
        );
      }
      const user = row.user_id ? await deps.users.findById(row.user_id) : undefined;
      if (!user) throw new HttpError(401, 'The email or the password is wrong.', 'wrong_credentials');
      return user;
    },

    async forgot(email: string, ip: string, baseUrl: string): Promise<void> {
      await deps.limits.take(MAIL_LIMIT, email, ip);
      if (!(await account(email))) return;
      mails.reset(email, baseUrl, await issueToken(email, 'reset', RESET_TTL_SECONDS));
    },

    /** Sets a new password; opening a mailed link also proves the address, so it verifies it too. */
    async reset(token: string, newPassword: string): Promise<void> {
      const email = await takeToken(token, 'reset');
      const row = email ? await account(email) : undefined;
      if (!row) throw new HttpError(400, 'This link is invalid, expired or already used.', 'invalid_link');
      await db.query('update email_accounts set password_hash = $2 where email = $1', [
        row.email,
        await hashPassword(newPassword),
      ]);
      // any other reset link of this address is void now
      await db.query(`delete from email_tokens where email = $1 and purpose = 'reset'`, [row.email]);
      await completeVerification(row);
    },

    changePassword: (user: UserRow, password: string, newPassword: string, ip: string) =>
      changePassword(deps, user, password, newPassword, ip),
  };
}
export type EmailAccounts = ReturnType<typeof createEmailAccounts>;

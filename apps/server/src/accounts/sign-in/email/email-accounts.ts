import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../../clock.js';
import { HttpError } from '../../../http-errors.js';
import type { Db } from '../../../store/index.js';
import { MAIL_LIMIT, PASSWORD_LIMIT, type AttemptLimits } from '../attempt-limits.js';
import {
  issueEmailToken,
  latestClaim,
  takeEmailToken,
  voidEmailTokens,
  type EmailClaim,
} from './email-tokens.js';
import { accountMails } from './account-mails.js';
import type { Mailer } from './mailer.js';
import { decoyHash, hashPassword, verifyPassword } from './passwords.js';
import { LinkConflictError, type PlayerLinks } from '../../links/player-links.js';
import type { UserRow, UsersRepo } from '../../users/users-repo.js';

/*
 * Email accounts: register, verify, login, forgot, reset, resend and password change. Rules that a
 * newcomer might question (docs/decisions/0051-email-accounts.md, 0196-an-address-belongs-to-its-prover.md):
 * - No answer tells whether an address is registered: register, forgot and resend answer the same words
 *   either way, and mails go out in the background so the answer takes the same time.
 * - Verification and reset tokens are random, stored only as a hash, expire, and are taken with
 *   `delete … returning`, so each works once (email-tokens.ts).
 * - An unverified registration reserves and binds nothing: it is a claim carried by its mailed token (the
 *   player who asked, the password given). Registering again replaces the claim and voids every earlier
 *   link; opening a link binds its own claim (that player, else a new one) and voids every other. A
 *   verified address never moves: registering it again only tells its owner someone tried.
 */

const VERIFY_TTL_SECONDS = 24 * 3600;
const RESET_TTL_SECONDS = 3600;

export const MAIL_SENT_MESSAGE =
  'If the address can receive mail, a message is on its way. Open the link in it to continue.';

const INVALID_LINK = 'This link is invalid, expired or already used.';

interface AccountRow {
  email: string;
  user_id: string | null;
  password_hash: string;
  verified_at: Date | null;
}

/** The sessions a password's change or reset ends (sign-in-sessions.ts). */
export interface PasswordSessions {
  endAll(userId: string): Promise<void>;
  endOthers(caller: { userId: string; sessionId?: string }): Promise<void>;
}

export interface EmailAccountsDeps {
  db: Db;
  clock: Clock;
  users: UsersRepo;
  links: PlayerLinks;
  limits: AttemptLimits;
  mailer: Mailer;
  logger: FastifyBaseLogger;
  sessions: PasswordSessions;
}

/** The player a claim binds the address to: the one who asked, else the address's own (new) player. */
async function claimant({ users, links }: EmailAccountsDeps, email: string, claim: EmailClaim) {
  const identity = { provider: 'email' as const, subject: email };
  const asker = claim.pendingUserId ? await users.findById(claim.pendingUserId) : undefined;
  if (!asker) return links.findOrCreate(identity);
  try {
    await links.link(asker.id, identity);
  } catch (error) {
    if (error instanceof LinkConflictError) throw new HttpError(400, INVALID_LINK, 'invalid_link');
    throw error;
  }
  return (await users.findById(asker.id))!;
}

/**
 * Binds a verification link's own claim to its address, unless the address is verified already; every
 * other pending claim of the address is void from now on. Returns the player it is bound to.
 */
async function bindClaim(deps: EmailAccountsDeps, email: string, claim: EmailClaim): Promise<UserRow> {
  const { db, clock } = deps;
  const { rows } = await db.query<AccountRow>('select * from email_accounts where email = $1', [email]);
  if (rows[0]?.verified_at) throw new HttpError(400, INVALID_LINK, 'invalid_link');
  const user = await claimant(deps, email, claim);
  const bound = await db.query(
    `insert into email_accounts (email, user_id, password_hash, verified_at) values ($1, $2, $3, $4)
     on conflict (email) do update set user_id = excluded.user_id, password_hash = excluded.password_hash,
       verified_at = excluded.verified_at, pending_user_id = null
     where email_accounts.verified_at is null returning email`,
    [email, user.id, claim.passwordHash, new Date(clock.now())],
  );
  if (!bound.rows[0]) throw new HttpError(400, INVALID_LINK, 'invalid_link');
  await voidEmailTokens(db, email, 'verify');
  return user;
}

/** A new password for a player's verified email sign-in, given the current one; ends their other sessions. */
async function changePassword(
  { db, limits, sessions }: EmailAccountsDeps,
  caller: { user: UserRow; sessionId: string | undefined },
  password: string,
  newPassword: string,
  ip: string,
): Promise<void> {
  const { rows } = await db.query<AccountRow>(
    'select * from email_accounts where user_id = $1 and verified_at is not null',
    [caller.user.id],
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
  await sessions.endOthers({ userId: caller.user.id, sessionId: caller.sessionId });
}

export function createEmailAccounts(deps: EmailAccountsDeps) {
  const { db, clock } = deps;

  /** The address's account: verified, or an unverified row made before claims lived in their tokens. */
  async function account(email: string): Promise<AccountRow | undefined> {
    const { rows } = await db.query<AccountRow>('select * from email_accounts where email = $1', [email]);
    return rows[0];
  }
  async function verified(email: string): Promise<AccountRow | undefined> {
    const row = await account(email);
    return row?.verified_at ? row : undefined;
  }

  const mails = accountMails(deps.mailer, deps.logger);

  /** Replaces the address's pending claim with `claim`: every earlier link is void, a new one is mailed. */
  async function mailClaim(email: string, claim: EmailClaim, baseUrl: string): Promise<void> {
    const token = await db.transaction(async (tx) => {
      await voidEmailTokens(tx, email, 'verify');
      return issueEmailToken(tx, clock, email, 'verify', VERIFY_TTL_SECONDS, claim);
    });
    mails.verification(email, baseUrl, token);
  }

  return {
    async register(email: string, password: string, ip: string, baseUrl: string, requester?: UserRow) {
      await deps.limits.take(MAIL_LIMIT, email, ip);
      const passwordHash = await hashPassword(password);
      if (await verified(email)) return mails.alreadyRegistered(email, baseUrl);
      await mailClaim(email, { pendingUserId: requester?.id ?? null, passwordHash }, baseUrl);
    },

    async verify(token: string): Promise<UserRow> {
      const taken = await takeEmailToken(db, clock, token, 'verify');
      if (!taken?.claim) throw new HttpError(400, INVALID_LINK, 'invalid_link');
      return bindClaim(deps, taken.email, taken.claim);
    },

    async resend(email: string, ip: string, baseUrl: string): Promise<void> {
      await deps.limits.take(MAIL_LIMIT, email, ip);
      if (await verified(email)) return;
      const claim = await latestClaim(db, email);
      if (claim) await mailClaim(email, claim, baseUrl);
    },

    async login(email: string, password: string, ip: string): Promise<UserRow> {
      await deps.limits.assertUnder(PASSWORD_LIMIT, email, ip);
      const row = await verified(email);
      // an address not confirmed yet is checked against its pending claim, to say what is missing
      const pending = row ? undefined : await latestClaim(db, email);
      // an unknown address costs the same hash as a known one
      const hash = row?.password_hash ?? pending?.passwordHash ?? (await decoyHash());
      const matches = await verifyPassword(password, hash);
      if (!matches || (!row && !pending)) {
        await deps.limits.record(PASSWORD_LIMIT, email, ip);
        throw new HttpError(401, 'The email or the password is wrong.', 'wrong_credentials');
      }
      if (!row) {
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

    /** Only a verified address gets a reset link: a pending claim is confirmed by its own link alone. */
    async forgot(email: string, ip: string, baseUrl: string): Promise<void> {
      await deps.limits.take(MAIL_LIMIT, email, ip);
      if (!(await verified(email))) return;
      mails.reset(email, baseUrl, await issueEmailToken(db, clock, email, 'reset', RESET_TTL_SECONDS));
    },

    /** Sets a new password; every session of the player ends, and every other reset link is void. */
    async reset(token: string, newPassword: string): Promise<void> {
      const taken = await takeEmailToken(db, clock, token, 'reset');
      const row = taken ? await verified(taken.email) : undefined;
      if (!row?.user_id) throw new HttpError(400, INVALID_LINK, 'invalid_link');
      await db.query('update email_accounts set password_hash = $2 where email = $1', [
        row.email,
        await hashPassword(newPassword),
      ]);
      await voidEmailTokens(db, row.email, 'reset');
      await deps.sessions.endAll(row.user_id);
    },

    changePassword: (
      caller: { user: UserRow; sessionId: string | undefined },
      password: string,
      newPassword: string,
      ip: string,
    ) => changePassword(deps, caller, password, newPassword, ip),
  };
}
export type EmailAccounts = ReturnType<typeof createEmailAccounts>;

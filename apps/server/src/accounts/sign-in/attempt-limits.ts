import type { Clock } from '../../clock.js';
import { HttpError } from '../../http-errors.js';
import type { Db } from '../../store/index.js';

/*
 * Counters of wrong passwords and of mails sent, per account and per IP, in fixed windows kept in the
 * database (any node sees the same count). HTTP-wide rate limits are another layer; these count what
 * only this module knows: a password was wrong, a mail went out for this address.
 */

export interface LimitRule {
  /** Counter family, e.g. 'password'. */
  name: string;
  perAccount: number;
  perIp: number;
  windowSeconds: number;
}

/** Wrong passwords: 5 per account, 20 per IP in 15 minutes. */
export const PASSWORD_LIMIT: LimitRule = { name: 'password', perAccount: 5, perIp: 20, windowSeconds: 900 };
/** Mails asked for (register, resend, forgot): 3 per address, 10 per IP in an hour. */
export const MAIL_LIMIT: LimitRule = { name: 'mail', perAccount: 3, perIp: 10, windowSeconds: 3600 };

/** A 429 wherever it surfaces; the email routes also say when to retry (Retry-After). */
export class TooManyAttemptsError extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'Too many attempts; please wait a while and try again.');
  }
}

export function createAttemptLimits(db: Db, clock: Clock) {
  const keys = (rule: LimitRule, account: string, ip: string) => [
    { key: `${rule.name}:account:${account}`, max: rule.perAccount },
    { key: `${rule.name}:ip:${ip}`, max: rule.perIp },
  ];

  async function current(key: string): Promise<{ count: number; expiresAt: number } | undefined> {
    const { rows } = await db.query<{ count: number; expires_at: Date }>(
      'select count, expires_at from auth_counters where key = $1',
      [key],
    );
    const row = rows[0];
    if (!row || new Date(row.expires_at).getTime() <= clock.now()) return undefined;
    return { count: row.count, expiresAt: new Date(row.expires_at).getTime() };
  }

  async function assertUnder(rule: LimitRule, account: string, ip: string): Promise<void> {
    for (const { key, max } of keys(rule, account, ip)) {
      const row = await current(key);
      if (row && row.count >= max) {
        throw new TooManyAttemptsError(Math.max(1, Math.ceil((row.expiresAt - clock.now()) / 1000)));
      }
    }
  }

  async function record(rule: LimitRule, account: string, ip: string): Promise<void> {
    const now = new Date(clock.now());
    const end = new Date(clock.now() + rule.windowSeconds * 1000);
    for (const { key } of keys(rule, account, ip)) {
      await db.query(
        `insert into auth_counters (key, count, expires_at) values ($1, 1, $3)
         on conflict (key) do update set
           count = case when auth_counters.expires_at <= $2 then 1 else auth_counters.count + 1 end,
           expires_at = case when auth_counters.expires_at <= $2 then $3 else auth_counters.expires_at end`,
        [key, now, end],
      );
    }
  }

  return {
    /** Throws TooManyAttemptsError when the account or the IP used up the rule's window. */
    assertUnder,
    /** Counts one (a wrong password, a mail). */
    record,
    /** Checks, then counts: for actions counted whether or not they succeed (mails). */
    async take(rule: LimitRule, account: string, ip: string): Promise<void> {
      await assertUnder(rule, account, ip);
      await record(rule, account, ip);
    },
  };
}
export type AttemptLimits = ReturnType<typeof createAttemptLimits>;

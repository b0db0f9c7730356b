import type { Balance } from '@xtalk/protocol';
import type { Clock } from '../clock.js';
import type { Db, Queryable } from '../store/index.js';
import { appendTxn, findTxnByKey, type AccountRow, type LedgerResult } from './ledger-rows.js';
import { tokyoDay } from './tokyo-day.js';
import { erasedAmong } from './erased-ids.js';
import { LedgerError } from './ledger-error.js';

/*
 * The account lock of the ledger (ledger.ts): credit_accounts keeps the running sum of an account's rows so
 * that one row lock serialises every change of that balance, on PGlite and on PostgreSQL with many nodes
 * alike. Free credits are topped up to the daily allowance on the first read or change of a Tokyo day
 * (lazily, inside the same transaction, keyed `daily:<day>`), so no sweeper is needed and a day is granted
 * once.
 */

export interface LedgerDeps {
  db: Db;
  clock: Clock;
  /**
   * The free credits an account is topped up to each Tokyo day (guests get less than accounts). Asked
   * before the account's transaction opens (PGlite is one connection: nothing else may query inside it),
   * so it must be cheap: the caller caches who is a guest.
   */
  dailyAllowance(userId: string): number | Promise<number>;
}

/** Today's top-up of a locked account, when it is due; returns the balance after it. */
export async function topUpIfDue(
  tx: Queryable,
  clock: Clock,
  day: string,
  userId: string,
  row: AccountRow,
  allowance: number,
): Promise<{ balance: Balance; topUp: LedgerResult | undefined }> {
  let balance: Balance = { free: Number(row.free), premium: Number(row.premium) };
  let topUp: LedgerResult | undefined;
  // Days compare as 'YYYY-MM-DD' strings; a node whose clock lags never grants an older day again.
  if (row.daily_day === null || row.daily_day < day) {
    const grant = Math.max(0, allowance - balance.free);
    const key = `daily:${day}`;
    if (grant > 0 && !(await findTxnByKey(tx, userId, key))) {
      topUp = await appendTxn(
        tx,
        new Date(clock.now()),
        { userId, key, cause: 'daily', reference: day, kind: 'daily_grant', free: grant, premium: 0 },
        balance,
      );
      balance = topUp.balance;
    }
    await tx.query('update credit_accounts set daily_day = $2 where user_id = $1', [userId, day]);
  }
  return { balance, topUp };
}

/**
 * Locks the account (creating it), applies today's top-up if it is due, and runs `fn` with the balance.
 * Everything that reads or changes a balance goes through here.
 */
export async function withAccount<T>(
  deps: LedgerDeps,
  userId: string,
  fn: (tx: Queryable, balance: Balance) => Promise<T>,
): Promise<{ value: T; topUp: LedgerResult | undefined }> {
  const day = tokyoDay(deps.clock.now());
  const allowance = await deps.dailyAllowance(userId);
  return deps.db.transaction(async (tx) => {
    const opened = await tx.query(
      'insert into credit_accounts (user_id) values ($1) on conflict (user_id) do nothing returning 1',
      [userId],
    );
    const { rows } = await tx.query<AccountRow>(
      'select free, premium, daily_day from credit_accounts where user_id = $1 for update',
      [userId],
    );
    // A change that began before its person deleted their account finds the account gone (it waited on
    // the deletion's lock), or opens a new one under the old id: neither may write a row for nobody.
    if (rows.length === 0 || (opened.rows.length > 0 && (await erasedAmong(tx, [userId])).length > 0))
      throw new LedgerError('not_found', 'This account has been deleted.');
    const { balance, topUp } = await topUpIfDue(
      tx,
      deps.clock,
      day,
      userId,
      rows[0] as AccountRow,
      allowance,
    );
    return { value: await fn(tx, balance), topUp };
  });
}

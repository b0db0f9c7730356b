import type { Balance, ServerWallet } from '@xtalk/protocol';
import { ledgerRows, walletOf, type NewTxn, type Reader } from '@xtalk/service-base';
import type { LedgerPort, LedgerResult } from '../ports.js';

/*
 * The standalone ledger's rows (table payment_ledger), through the ledger statements XTalk's credits
 * module shares (`@xtalk/service-base`); a balance here is the sum of its rows, with no running sum
 * beside them. Nothing here locks: changes run under the account lock of ledger.ts.
 */

export const rows = ledgerRows('payment_ledger');

export async function append(db: Reader, now: Date, entry: NewTxn, balance: Balance): Promise<LedgerResult> {
  const txn = await rows.insert(db, now, entry);
  const next = { free: balance.free + entry.free, premium: balance.premium + entry.premium };
  return { txn, balance: next, applied: true };
}

/** Accounts whose total (or one part) lies in [min, max], largest first. */
export async function filterByBalance(
  db: Reader,
  query: Parameters<LedgerPort['filterByBalance']>[0],
): Promise<ServerWallet[]> {
  const measure = query.part === 'total' ? 'sum(free_delta + premium_delta)' : `sum(${query.part}_delta)`;
  const sums = await db.query<{ user_id: string; free: string; premium: string }>(
    `select user_id, sum(free_delta) as free, sum(premium_delta) as premium from payment_ledger
     group by user_id
     having ($1::bigint is null or ${measure} >= $1) and ($2::bigint is null or ${measure} <= $2)
     order by ${measure} desc, user_id limit $3 offset $4`,
    [query.min ?? null, query.max ?? null, query.limit, query.page * query.limit],
  );
  return sums.rows.map(walletOf);
}

import type { Balance } from '@xtalk/protocol';
import { ledgerRows, type LedgerResult, type NewTxn, type Reader } from '@xtalk/service-base';
import type { Queryable } from '../store/index.js';

/*
 * The ledger's rows (ledger.ts) in credit_txns, through the ledger statements the standalone payment
 * service shares (`@xtalk/service-base`), and credit_accounts, the running sum of each account's rows.
 * Nothing here locks: changes run inside the account lock of ledger-account.ts.
 */

export {
  toTxn,
  type LedgerEntry,
  type LedgerResult,
  type NewTxn,
  type Reader,
  type TxnRow,
} from '@xtalk/service-base';

export interface AccountRow {
  free: string | number;
  premium: string | number;
  daily_day: string | null;
}

const txns = ledgerRows('credit_txns');

export const TXN_COLUMNS = txns.columns;
export const findTxnByKey = txns.findByKey;
export const findTxnRow = txns.findRow;
export const listTxns = txns.list;
/** The sum of the account's rows, which the stored balance always equals. */
export const sumOfTxns = txns.sum;

/** Appends the row and moves the account's running sum by it; the caller holds the account lock. */
export async function appendTxn(
  tx: Queryable,
  now: Date,
  entry: NewTxn,
  balance: Balance,
): Promise<LedgerResult> {
  const next = { free: balance.free + entry.free, premium: balance.premium + entry.premium };
  const txn = await txns.insert(tx, now, entry);
  await tx.query('update credit_accounts set free = $2, premium = $3, updated_at = $4 where user_id = $1', [
    entry.userId,
    next.free,
    next.premium,
    now,
  ]);
  return { txn, balance: next, applied: true };
}

/** The balance as last committed, without locking or topping up. */
export async function storedBalance(db: Reader, userId: string): Promise<Balance> {
  const { rows } = await db.query<AccountRow>(
    'select free, premium from credit_accounts where user_id = $1',
    [userId],
  );
  return { free: Number(rows[0]?.free ?? 0), premium: Number(rows[0]?.premium ?? 0) };
}

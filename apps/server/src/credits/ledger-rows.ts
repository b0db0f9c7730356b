import { randomUUID } from 'node:crypto';
import { CREDIT_CURRENCY, type Balance, type Txn, type TxnKind, type TxnListQuery } from '@xtalk/protocol';
import type { Queryable } from '../store/db.js';

/*
 * The ledger's rows (ledger.ts): how a credit_txns row reads as a Txn, and the statements that find, append
 * and sum them. Nothing here locks: changes run inside the account lock of ledger-account.ts.
 */

export type Reader = Pick<Queryable, 'query'>;

export interface LedgerEntry {
  userId: string;
  /** Idempotency key, unique per account: the same key twice changes the balance once. */
  key: string;
  /** What caused the change ('translation', 'order', 'admin', ...). */
  cause: string;
  /** What it is about (an order id, room/message, the row reversed). */
  reference?: string | undefined;
}

export interface LedgerResult {
  txn: Txn;
  balance: Balance;
  /** False when the key was seen before: `txn` is the earlier row and nothing changed now. */
  applied: boolean;
}

/** A row to append: the entry, its kind and the signed change of each part. */
export type NewTxn = LedgerEntry & { kind: TxnKind; free: number; premium: number; reverses?: string };

export interface AccountRow {
  free: string | number;
  premium: string | number;
  daily_day: string | null;
}

export interface TxnRow {
  id: string;
  kind: TxnKind;
  free_delta: string | number;
  premium_delta: string | number;
  cause: string;
  reference: string | null;
  reverses: string | null;
  created_at: Date | string;
  reversed_by: string | null;
}

export const TXN_COLUMNS = `t.id, t.kind, t.free_delta, t.premium_delta, t.cause, t.reference, t.reverses, t.created_at,
  (select r.id from credit_txns r where r.reverses = t.id) as reversed_by`;

export function toTxn(row: TxnRow): Txn {
  const free = Number(row.free_delta);
  const premium = Number(row.premium_delta);
  return {
    id: row.id,
    kind: row.kind,
    status: row.reversed_by ? 'reversed' : 'completed',
    currency: CREDIT_CURRENCY,
    amount: free + premium,
    free,
    premium,
    cause: row.cause,
    reference: row.reference,
    createdAt: new Date(row.created_at).getTime(),
  };
}

/** The row an idempotency key made in this account, if any. */
export async function findTxnByKey(tx: Reader, userId: string, key: string): Promise<Txn | undefined> {
  const { rows } = await tx.query<TxnRow>(
    `select ${TXN_COLUMNS} from credit_txns t where t.user_id = $1 and t.idempotency_key = $2`,
    [userId, key],
  );
  return rows[0] ? toTxn(rows[0]) : undefined;
}

/** One row of this account as stored (with whether it was reversed), for a reversal to undo. */
export async function findTxnRow(tx: Reader, userId: string, txnId: string): Promise<TxnRow | undefined> {
  const { rows } = await tx.query<TxnRow>(
    `select ${TXN_COLUMNS} from credit_txns t where t.id = $1 and t.user_id = $2`,
    [txnId, userId],
  );
  return rows[0];
}

/** Appends the row and moves the account's running sum by it; the caller holds the account lock. */
export async function appendTxn(
  tx: Queryable,
  now: Date,
  entry: NewTxn,
  balance: Balance,
): Promise<LedgerResult> {
  const id = randomUUID();
  const next = { free: balance.free + entry.free, premium: balance.premium + entry.premium };
  await tx.query(
    `insert into credit_txns (id, user_id, kind, free_delta, premium_delta, cause, reference,
       idempotency_key, reverses, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      id,
      entry.userId,
      entry.kind,
      entry.free,
      entry.premium,
      entry.cause,
      entry.reference ?? null,
      entry.key,
      entry.reverses ?? null,
      now,
    ],
  );
  await tx.query('update credit_accounts set free = $2, premium = $3, updated_at = $4 where user_id = $1', [
    entry.userId,
    next.free,
    next.premium,
    now,
  ]);
  const txn: Txn = {
    id,
    kind: entry.kind,
    status: 'completed',
    currency: CREDIT_CURRENCY,
    amount: entry.free + entry.premium,
    free: entry.free,
    premium: entry.premium,
    cause: entry.cause,
    reference: entry.reference ?? null,
    createdAt: now.getTime(),
  };
  return { txn, balance: next, applied: true };
}

/** Newest first; `status` filters on reversed or not. */
export async function listTxns(db: Reader, userId: string, query: TxnListQuery): Promise<Txn[]> {
  const filter =
    query.status === undefined
      ? ''
      : `and ${query.status === 'reversed' ? '' : 'not '}exists (select 1 from credit_txns r where r.reverses = t.id)`;
  const { rows } = await db.query<TxnRow>(
    `select ${TXN_COLUMNS} from credit_txns t where t.user_id = $1 ${filter}
     order by t.seq desc limit $2 offset $3`,
    [userId, query.limit, query.page * query.limit],
  );
  return rows.map(toTxn);
}

/** The balance as last committed, without locking or topping up. */
export async function storedBalance(db: Reader, userId: string): Promise<Balance> {
  const { rows } = await db.query<AccountRow>(
    'select free, premium from credit_accounts where user_id = $1',
    [userId],
  );
  return { free: Number(rows[0]?.free ?? 0), premium: Number(rows[0]?.premium ?? 0) };
}

/** The sum of the account's rows, which the stored balance always equals. */
export async function sumOfTxns(db: Reader, userId: string): Promise<Balance> {
  const { rows } = await db.query<{ free: string | null; premium: string | null }>(
    'select sum(free_delta) as free, sum(premium_delta) as premium from credit_txns where user_id = $1',
    [userId],
  );
  return { free: Number(rows[0]?.free ?? 0), premium: Number(rows[0]?.premium ?? 0) };
}

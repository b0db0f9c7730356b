import { randomUUID } from 'node:crypto';
import {
  CREDIT_CURRENCY,
  type Balance,
  type ServerWallet,
  type Txn,
  type TxnKind,
  type TxnListQuery,
} from '@xtalk/protocol';
import type { LedgerEntry, LedgerPort, LedgerResult } from '../ports.js';

/*
 * The standalone ledger's rows (table payment_ledger): how one reads as a Txn, and the statements that
 * find, append, sum and list them. Nothing here locks: changes run under the account lock of ledger.ts.
 */

type Reader = { query<Row extends object>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }> };

interface Row {
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

export type NewRow = LedgerEntry & { kind: TxnKind; free: number; premium: number; reverses?: string };

const COLUMNS = `t.id, t.kind, t.free_delta, t.premium_delta, t.cause, t.reference, t.reverses, t.created_at,
  (select r.id from payment_ledger r where r.reverses = t.id) as reversed_by`;

function toTxn(row: Row): Txn {
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

export async function findByKey(db: Reader, userId: string, key: string): Promise<Txn | undefined> {
  const { rows } = await db.query<Row>(
    `select ${COLUMNS} from payment_ledger t where t.user_id = $1 and t.idempotency_key = $2`,
    [userId, key],
  );
  return rows[0] && toTxn(rows[0]);
}

export async function findById(db: Reader, userId: string, id: string): Promise<Txn | undefined> {
  const { rows } = await db.query<Row>(
    `select ${COLUMNS} from payment_ledger t where t.id = $1 and t.user_id = $2`,
    [id, userId],
  );
  return rows[0] && toTxn(rows[0]);
}

/** Whether the row is itself a reversal (reversals are never reversed). */
export async function isReversal(db: Reader, id: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from payment_ledger where id = $1 and reverses is not null', [
    id,
  ]);
  return rows.length > 0;
}

export async function sumOf(db: Reader, userId: string): Promise<Balance> {
  const { rows } = await db.query<{ free: string | null; premium: string | null }>(
    'select sum(free_delta) as free, sum(premium_delta) as premium from payment_ledger where user_id = $1',
    [userId],
  );
  return { free: Number(rows[0]?.free ?? 0), premium: Number(rows[0]?.premium ?? 0) };
}

export async function append(db: Reader, now: Date, entry: NewRow, balance: Balance): Promise<LedgerResult> {
  const id = randomUUID();
  const { rows } = await db.query<Row>(
    `insert into payment_ledger (id, user_id, kind, free_delta, premium_delta, cause, reference,
       idempotency_key, reverses, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     returning id, kind, free_delta, premium_delta, cause, reference, reverses, created_at, null as reversed_by`,
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
  const next = { free: balance.free + entry.free, premium: balance.premium + entry.premium };
  return { txn: toTxn(rows[0] as Row), balance: next, applied: true };
}

/** Newest first; `status` filters on reversed or not. */
export async function list(db: Reader, userId: string, query: TxnListQuery): Promise<Txn[]> {
  const filter =
    query.status === undefined
      ? ''
      : `and ${query.status === 'reversed' ? '' : 'not '}exists (select 1 from payment_ledger r where r.reverses = t.id)`;
  const { rows } = await db.query<Row>(
    `select ${COLUMNS} from payment_ledger t where t.user_id = $1 ${filter}
     order by t.seq desc limit $2 offset $3`,
    [userId, query.limit, query.page * query.limit],
  );
  return rows.map(toTxn);
}

/** Accounts whose total (or one part) lies in [min, max], largest first. */
export async function filterByBalance(
  db: Reader,
  query: Parameters<LedgerPort['filterByBalance']>[0],
): Promise<ServerWallet[]> {
  const measure = query.part === 'total' ? 'sum(free_delta + premium_delta)' : `sum(${query.part}_delta)`;
  const { rows } = await db.query<{ user_id: string; free: string; premium: string }>(
    `select user_id, sum(free_delta) as free, sum(premium_delta) as premium from payment_ledger
     group by user_id
     having ($1::bigint is null or ${measure} >= $1) and ($2::bigint is null or ${measure} <= $2)
     order by ${measure} desc, user_id limit $3 offset $4`,
    [query.min ?? null, query.max ?? null, query.limit, query.page * query.limit],
  );
  return rows.map((row) => ({
    gctId: row.user_id,
    currency: CREDIT_CURRENCY,
    free: Number(row.free),
    premium: Number(row.premium),
  }));
}

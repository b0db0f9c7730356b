import { randomUUID } from 'node:crypto';
import {
  CREDIT_CURRENCY,
  type Balance,
  type ServerWallet,
  type Txn,
  type TxnKind,
  type TxnListQuery,
} from '@xtalk/protocol';
import type { Reader } from './sql.js';

/*
 * An append-only credits ledger's rows: one per change of a balance, signed free and premium deltas, an
 * idempotency key unique per account, reversals as new rows pointing at the row they undo. XTalk's
 * credits module keeps them in credit_txns, the standalone payment service in payment_ledger: the table
 * is named by its owner, the statements are these. Nothing here locks: each ledger runs its changes
 * under its own account lock.
 */

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

/** An account's wallet as the server calls answer it, from its summed or stored parts. */
export const walletOf = (row: {
  user_id: string;
  free: string | number;
  premium: string | number;
}): ServerWallet => ({
  gctId: row.user_id,
  currency: CREDIT_CURRENCY,
  free: Number(row.free),
  premium: Number(row.premium),
});

/** The statements over the rows of `table`, which the ledger owning it names. */
export function ledgerRows(table: string) {
  /** A row's columns (alias `t`), with the row that reversed it if any. */
  const columns = `t.id, t.kind, t.free_delta, t.premium_delta, t.cause, t.reference, t.reverses, t.created_at,
  (select r.id from ${table} r where r.reverses = t.id) as reversed_by`;

  return {
    columns,

    /** The row an idempotency key made in this account, if any. */
    async findByKey(db: Reader, userId: string, key: string): Promise<Txn | undefined> {
      const { rows } = await db.query<TxnRow>(
        `select ${columns} from ${table} t where t.user_id = $1 and t.idempotency_key = $2`,
        [userId, key],
      );
      return rows[0] ? toTxn(rows[0]) : undefined;
    },

    /** One row of this account as stored (with whether it was reversed), for a reversal to undo. */
    async findRow(db: Reader, userId: string, txnId: string): Promise<TxnRow | undefined> {
      const { rows } = await db.query<TxnRow>(
        `select ${columns} from ${table} t where t.id = $1 and t.user_id = $2`,
        [txnId, userId],
      );
      return rows[0];
    },

    /** Appends the row; the caller holds the account lock. */
    async insert(db: Reader, now: Date, entry: NewTxn): Promise<Txn> {
      const id = randomUUID();
      await db.query(
        `insert into ${table} (id, user_id, kind, free_delta, premium_delta, cause, reference,
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
      return {
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
    },

    /** Newest first; `status` filters on reversed or not. */
    async list(db: Reader, userId: string, query: TxnListQuery): Promise<Txn[]> {
      const filter =
        query.status === undefined
          ? ''
          : `and ${query.status === 'reversed' ? '' : 'not '}exists (select 1 from ${table} r where r.reverses = t.id)`;
      const { rows } = await db.query<TxnRow>(
        `select ${columns} from ${table} t where t.user_id = $1 ${filter}
         order by t.seq desc limit $2 offset $3`,
        [userId, query.limit, query.page * query.limit],
      );
      return rows.map(toTxn);
    },

    /** The sum of the account's rows: its balance. */
    async sum(db: Reader, userId: string): Promise<Balance> {
      const { rows } = await db.query<{ free: string | null; premium: string | null }>(
        `select sum(free_delta) as free, sum(premium_delta) as premium from ${table} where user_id = $1`,
        [userId],
      );
      return { free: Number(rows[0]?.free ?? 0), premium: Number(rows[0]?.premium ?? 0) };
    },
  };
}
export type LedgerRows = ReturnType<typeof ledgerRows>;

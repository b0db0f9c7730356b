import { randomUUID } from 'node:crypto';
import { CREDIT_CURRENCY, type Balance, type Txn, type TxnKind, type TxnListQuery } from '@xtalk/protocol';
import type { Clock } from '../clock.js';
import type { Db, Queryable } from '../store/db.js';
import { tokyoDay } from './tokyo-day.js';

/*
 * The credits ledger (issue 9): append-only rows in credit_txns, one per change of a balance, each with an
 * idempotency key (unique per account) and a cause. credit_accounts keeps the running sum of an account's
 * rows so that one row lock serialises every change of that balance, on PGlite and on PostgreSQL with
 * many nodes alike: read, decide, append, update, commit. A change that would take a part below zero is
 * refused whole; a key seen before returns the row it made and changes nothing.
 *
 * Free credits are topped up to the daily allowance on the first read or change of a Tokyo day (lazily,
 * inside the same transaction, keyed `daily:<day>`), so no sweeper is needed and a day is granted once.
 */

export type BalancePart = 'free' | 'premium';
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

export type SpendResult = ({ ok: true } & LedgerResult) | { ok: false; balance: Balance; needed: number };

export class LedgerError extends Error {
  constructor(
    readonly code: 'insufficient' | 'not_found' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'LedgerError';
  }
}

export interface BalanceChange {
  userId: string;
  balance: Balance;
  /** The row that changed it. */
  txn: Txn;
}

export interface LedgerDeps {
  db: Db;
  clock: Clock;
  /**
   * The free credits an account is topped up to each Tokyo day (guests get less than accounts). Asked
   * inside the account's transaction, once a day per account; read through `tx` (PGlite is one connection).
   */
  dailyAllowance(userId: string, tx: Reader): number | Promise<number>;
}

interface AccountRow {
  free: string | number;
  premium: string | number;
  daily_day: string | null;
}

interface TxnRow {
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

const TXN_COLUMNS = `t.id, t.kind, t.free_delta, t.premium_delta, t.cause, t.reference, t.reverses, t.created_at,
  (select r.id from credit_txns r where r.reverses = t.id) as reversed_by`;

function toTxn(row: TxnRow): Txn {
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

function positiveInt(amount: number, what: string): void {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new LedgerError('invalid', `${what} must be a positive whole number of credits.`);
}

export function createLedger(deps: LedgerDeps) {
  const { db, clock } = deps;
  const listeners = new Set<(change: BalanceChange) => void>();

  function notify(userId: string, result: LedgerResult | undefined): void {
    if (!result?.applied) return;
    for (const listener of listeners) {
      try {
        listener({ userId, balance: result.balance, txn: result.txn });
      } catch {
        // a listener's failure is its own; the change is committed
      }
    }
  }

  async function findByKey(tx: Reader, userId: string, key: string): Promise<Txn | undefined> {
    const { rows } = await tx.query<TxnRow>(
      `select ${TXN_COLUMNS} from credit_txns t where t.user_id = $1 and t.idempotency_key = $2`,
      [userId, key],
    );
    return rows[0] ? toTxn(rows[0]) : undefined;
  }

  async function append(
    tx: Queryable,
    entry: LedgerEntry & { kind: TxnKind; free: number; premium: number; reverses?: string },
    balance: Balance,
  ): Promise<LedgerResult> {
    const id = randomUUID();
    const now = new Date(clock.now());
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

  /**
   * Locks the account (creating it), applies today's top-up if it is due, and runs `fn` with the balance.
   * Everything that reads or changes a balance goes through here.
   */
  async function withAccount<T>(
    userId: string,
    fn: (tx: Queryable, balance: Balance) => Promise<T>,
  ): Promise<{ value: T; topUp: LedgerResult | undefined }> {
    const day = tokyoDay(clock.now());
    return db.transaction(async (tx) => {
      await tx.query('insert into credit_accounts (user_id) values ($1) on conflict (user_id) do nothing', [
        userId,
      ]);
      const { rows } = await tx.query<AccountRow>(
        'select free, premium, daily_day from credit_accounts where user_id = $1 for update',
        [userId],
      );
      const row = rows[0] as AccountRow;
      let balance: Balance = { free: Number(row.free), premium: Number(row.premium) };
      let topUp: LedgerResult | undefined;
      // Days compare as 'YYYY-MM-DD' strings; a node whose clock lags never grants an older day again.
      if (row.daily_day === null || row.daily_day < day) {
        const target = await deps.dailyAllowance(userId, tx);
        const grant = Math.max(0, target - balance.free);
        const key = `daily:${day}`;
        if (grant > 0 && !(await findByKey(tx, userId, key))) {
          topUp = await append(
            tx,
            { userId, key, cause: 'daily', reference: day, kind: 'daily_grant', free: grant, premium: 0 },
            balance,
          );
          balance = topUp.balance;
        }
        await tx.query('update credit_accounts set daily_day = $2 where user_id = $1', [userId, day]);
      }
      return { value: await fn(tx, balance), topUp };
    });
  }

  /** Runs a change under the account lock; a key seen before returns its row unchanged. */
  async function change(
    entry: LedgerEntry,
    decide: (tx: Queryable, balance: Balance) => Promise<LedgerResult>,
  ): Promise<LedgerResult> {
    const { value, topUp } = await withAccount(entry.userId, async (tx, balance) => {
      const earlier = await findByKey(tx, entry.userId, entry.key);
      if (earlier) return { txn: earlier, balance, applied: false };
      return decide(tx, balance);
    });
    // both: the top-up is a change of its own (it resumes refused work) even when a spend follows it
    notify(entry.userId, topUp);
    notify(entry.userId, value);
    return value;
  }

  async function balanceOf(userId: string): Promise<Balance> {
    const { value, topUp } = await withAccount(userId, async (_tx, balance) => balance);
    notify(userId, topUp);
    return value;
  }

  return {
    /** The balance now, after today's top-up. */
    balance: balanceOf,

    /** Adds credits to one part: a purchase, a grant, a positive adjustment. */
    credit(
      entry: LedgerEntry & {
        amount: number;
        part: BalancePart;
        kind?: Extract<TxnKind, 'purchase' | 'adjustment' | 'daily_grant'>;
      },
    ): Promise<LedgerResult> {
      positiveInt(entry.amount, 'amount');
      return change(entry, (tx, balance) =>
        append(
          tx,
          {
            ...entry,
            kind: entry.kind ?? (entry.part === 'premium' ? 'purchase' : 'adjustment'),
            free: entry.part === 'free' ? entry.amount : 0,
            premium: entry.part === 'premium' ? entry.amount : 0,
          },
          balance,
        ),
      );
    },

    /** Takes `amount`, free first then premium, or nothing at all when the balance does not cover it. */
    async spend(entry: LedgerEntry & { amount: number }): Promise<SpendResult> {
      positiveInt(entry.amount, 'amount');
      try {
        const result = await change(entry, async (tx, balance) => {
          if (balance.free + balance.premium < entry.amount) {
            throw new LedgerError('insufficient', 'Not enough credits.');
          }
          const fromFree = Math.min(balance.free, entry.amount);
          return append(
            tx,
            { ...entry, kind: 'spend', free: -fromFree, premium: -(entry.amount - fromFree) },
            balance,
          );
        });
        return { ok: true, ...result };
      } catch (error) {
        if (!(error instanceof LedgerError && error.code === 'insufficient')) throw error;
        return { ok: false, balance: await balanceOf(entry.userId), needed: entry.amount };
      }
    },

    /**
     * A new row that undoes `txnId` exactly (kind `refund` for failed work, `reversal` otherwise); the
     * original is never edited. Refused when it would overdraw (bought credits already spent).
     */
    reverse(
      entry: LedgerEntry & { txnId: string; kind?: Extract<TxnKind, 'refund' | 'reversal'> },
    ): Promise<LedgerResult> {
      return change(entry, async (tx, balance) => {
        const { rows } = await tx.query<TxnRow>(
          `select ${TXN_COLUMNS} from credit_txns t where t.id = $1 and t.user_id = $2`,
          [entry.txnId, entry.userId],
        );
        const original = rows[0];
        if (!original) throw new LedgerError('not_found', `No transaction ${entry.txnId} in this account.`);
        if (original.reversed_by)
          throw new LedgerError('invalid', `Transaction ${entry.txnId} is already reversed.`);
        if (original.reverses) throw new LedgerError('invalid', 'A reversal cannot itself be reversed.');
        const free = -Number(original.free_delta);
        const premium = -Number(original.premium_delta);
        if (balance.free + free < 0 || balance.premium + premium < 0)
          throw new LedgerError('insufficient', 'Reversing it would overdraw the balance.');
        return append(
          tx,
          {
            ...entry,
            reference: entry.reference ?? entry.txnId,
            kind: entry.kind ?? 'reversal',
            free,
            premium,
            reverses: entry.txnId,
          },
          balance,
        );
      });
    },

    /** An administrator's signed change of either part; refused when it would overdraw. */
    adjust(entry: LedgerEntry & { free?: number; premium?: number }): Promise<LedgerResult> {
      const free = entry.free ?? 0;
      const premium = entry.premium ?? 0;
      if (!Number.isSafeInteger(free) || !Number.isSafeInteger(premium) || (free === 0 && premium === 0))
        throw new LedgerError('invalid', 'An adjustment changes free or premium by a whole number.');
      return change(entry, async (tx, balance) => {
        if (balance.free + free < 0 || balance.premium + premium < 0)
          throw new LedgerError('insufficient', 'The adjustment would overdraw the balance.');
        return append(tx, { ...entry, kind: 'adjustment', free, premium }, balance);
      });
    },

    /** Newest first; `status` filters on reversed or not. */
    async list(userId: string, query: TxnListQuery): Promise<Txn[]> {
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
    },

    /** The row an idempotency key made, if any (payments look up what an order already did). */
    async findByKey(userId: string, key: string): Promise<Txn | undefined> {
      return findByKey(db, userId, key);
    },

    /** The balance as last committed, without locking or topping up (for notifications). */
    async peek(userId: string): Promise<Balance> {
      const { rows } = await db.query<AccountRow>(
        'select free, premium from credit_accounts where user_id = $1',
        [userId],
      );
      return { free: Number(rows[0]?.free ?? 0), premium: Number(rows[0]?.premium ?? 0) };
    },

    /** The stored balance and the sum of the account's rows; equal unless something is badly wrong. */
    async audit(userId: string): Promise<{ stored: Balance; sum: Balance }> {
      const stored = await db.query<AccountRow>(
        'select free, premium from credit_accounts where user_id = $1',
        [userId],
      );
      const sum = await db.query<{ free: string | null; premium: string | null }>(
        'select sum(free_delta) as free, sum(premium_delta) as premium from credit_txns where user_id = $1',
        [userId],
      );
      return {
        stored: { free: Number(stored.rows[0]?.free ?? 0), premium: Number(stored.rows[0]?.premium ?? 0) },
        sum: { free: Number(sum.rows[0]?.free ?? 0), premium: Number(sum.rows[0]?.premium ?? 0) },
      };
    },

    /** Called after every committed change of a balance (on this node; the notifier fans it out). */
    onChange(listener: (change: BalanceChange) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
export type Ledger = ReturnType<typeof createLedger>;

import type { Balance, Txn, TxnKind, TxnListQuery } from '@xtalk/protocol';
import type { Clock } from '../clock.js';
import type { Queryable } from '../store/index.js';
import { withAccount, type LedgerDeps } from './ledger-account.js';
import { createSpends, type SpendEntry, type SpendResult } from './ledger-spends.js';
import { LedgerError } from './ledger-error.js';
import {
  appendTxn,
  findTxnByKey,
  findTxnRow,
  listTxns,
  storedBalance,
  sumOfTxns,
  type LedgerEntry,
  type LedgerResult,
  type NewTxn,
} from './ledger-rows.js';

/*
 * The credits ledger: append-only rows in credit_txns, one per change of a balance, each with an
 * idempotency key (unique per account) and a cause. credit_accounts keeps the running sum of an account's
 * rows so that one row lock serialises every change of that balance, on PGlite and on PostgreSQL with
 * many nodes alike: read, decide, append, update, commit (ledger-account.ts). A change that would take a
 * part below zero is refused whole; a key seen before returns the row it made and changes nothing.
 *
 * Free credits are topped up to the daily allowance on the first read or change of a Tokyo day (lazily,
 * inside the same transaction, keyed `daily:<day>`), so no sweeper is needed and a day is granted once.
 */

export type { LedgerDeps } from './ledger-account.js';
export type { LedgerEntry, LedgerResult, Reader } from './ledger-rows.js';

export type BalancePart = 'free' | 'premium';
export type { SpendResult } from './ledger-spends.js';

export { LedgerError };

export interface BalanceChange {
  userId: string;
  balance: Balance;
  /** The row that changed it. */
  txn: Txn;
}

function positiveInt(amount: number, what: string): void {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new LedgerError('invalid', `${what} must be a positive whole number of credits.`);
}

/** A new row that undoes `entry.txnId` exactly; refused when it would overdraw (bought credits spent). */
async function reversal(
  tx: Queryable,
  clock: Clock,
  entry: LedgerEntry & { txnId: string; kind?: Extract<TxnKind, 'refund' | 'reversal'> },
  balance: Balance,
): Promise<LedgerResult> {
  const original = await findTxnRow(tx, entry.userId, entry.txnId);
  if (!original) throw new LedgerError('not_found', `No transaction ${entry.txnId} in this account.`);
  if (original.reversed_by)
    throw new LedgerError('invalid', `Transaction ${entry.txnId} is already reversed.`);
  if (original.reverses) throw new LedgerError('invalid', 'A reversal cannot itself be reversed.');
  const free = -Number(original.free_delta);
  const premium = -Number(original.premium_delta);
  if (balance.free + free < 0 || balance.premium + premium < 0)
    throw new LedgerError('insufficient', 'Reversing it would overdraw the balance.');
  return appendTxn(
    tx,
    new Date(clock.now()),
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
}

/** Tells every listener of a change that was applied; a listener's failure is its own. */
function notifyAll(
  listeners: ReadonlySet<(change: BalanceChange) => void>,
  userId: string,
  result: LedgerResult | undefined,
): void {
  if (!result?.applied) return;
  for (const listener of listeners) {
    try {
      listener({ userId, balance: result.balance, txn: result.txn });
    } catch {
      // a listener's failure is its own; the change is committed
    }
  }
}

/** What the ledger tells without changing anything: no lock, no top-up. */
function ledgerReads(db: LedgerDeps['db']) {
  return {
    /** Newest first; `status` filters on reversed or not. */
    list: (userId: string, query: TxnListQuery): Promise<Txn[]> => listTxns(db, userId, query),

    /** The row an idempotency key made, if any (payments look up what an order already did). */
    findByKey: (userId: string, key: string): Promise<Txn | undefined> => findTxnByKey(db, userId, key),

    /** The balance as last committed, without locking or topping up (for notifications). */
    peek: (userId: string): Promise<Balance> => storedBalance(db, userId),

    /** The stored balance and the sum of the account's rows; equal unless something is badly wrong. */
    async audit(userId: string): Promise<{ stored: Balance; sum: Balance }> {
      const stored = await storedBalance(db, userId);
      return { stored, sum: await sumOfTxns(db, userId) };
    },
  };
}

export function createLedger(deps: LedgerDeps) {
  const { db, clock } = deps;
  const listeners = new Set<(change: BalanceChange) => void>();
  const notify = (userId: string, result: LedgerResult | undefined) => notifyAll(listeners, userId, result);
  const append = (tx: Queryable, entry: NewTxn, balance: Balance) =>
    appendTxn(tx, new Date(clock.now()), entry, balance);
  const spends = createSpends(deps);

  /** Runs a change under the account lock; a key seen before returns its row unchanged. */
  async function change(
    entry: LedgerEntry,
    decide: (tx: Queryable, balance: Balance) => Promise<LedgerResult>,
  ): Promise<LedgerResult> {
    const { value, topUp } = await withAccount(deps, entry.userId, async (tx, balance) => {
      const earlier = await findTxnByKey(tx, entry.userId, entry.key);
      if (earlier) return { txn: earlier, balance, applied: false };
      return decide(tx, balance);
    });
    // both: the top-up is a change of its own (it resumes refused work) even when a spend follows it
    notify(entry.userId, topUp);
    notify(entry.userId, value);
    return value;
  }

  async function balanceOf(userId: string): Promise<Balance> {
    const { value, topUp } = await withAccount(deps, userId, async (_tx, balance) => balance);
    notify(userId, topUp);
    return value;
  }

  return {
    ...ledgerReads(db),
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

    /**
     * Takes `amount`, free first then premium, or nothing at all when the balance does not cover it.
     * Group-committed with the spends that arrive meanwhile (ledger-spends.ts).
     */
    async spend(entry: SpendEntry): Promise<SpendResult> {
      positiveInt(entry.amount, 'amount');
      const { result, topUp } = await spends.submit(entry);
      notify(entry.userId, topUp);
      if (result.ok) notify(entry.userId, result);
      return result;
    },

    /**
     * A new row that undoes `txnId` exactly (kind `refund` for failed work, `reversal` otherwise); the
     * original is never edited. Refused when it would overdraw (bought credits already spent).
     */
    reverse(
      entry: LedgerEntry & { txnId: string; kind?: Extract<TxnKind, 'refund' | 'reversal'> },
    ): Promise<LedgerResult> {
      return change(entry, (tx, balance) => reversal(tx, clock, entry, balance));
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

    /** Called after every committed change of a balance (on this node; the notifier fans it out). */
    onChange(listener: (change: BalanceChange) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
export type Ledger = ReturnType<typeof createLedger>;

import type { Balance } from '@xtalk/protocol';
import {
  LedgerRefusal,
  type Clock,
  type Db,
  type LedgerEntry,
  type LedgerPort,
  type LedgerResult,
  type Queryable,
  type SpendResult,
} from '../ports.js';
import type { NewTxn } from '@xtalk/service-base';
import { append, filterByBalance, rows } from './ledger-rows.js';

/*
 * The standalone service's ledger: the LedgerPort over its own table (payment_ledger), for a service
 * that runs without XTalk's server and so without its credits module. Each change runs in a transaction
 * holding a lock on its account (an advisory lock on the user id, so no account row is needed), on
 * PGlite and on PostgreSQL with several nodes alike: read the sum, decide, append. A key seen before
 * returns its row and changes nothing; a change that would take a part below zero is refused whole.
 */

export interface StandaloneLedgerOptions {
  /** Free credits an account starts with (its first row, `opening`); 0 by default. */
  openingFree?: number;
}

function positiveInt(amount: number, what: string): void {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new LedgerRefusal('invalid', `${what} must be a positive whole number of credits.`);
}

const overdraws = (balance: Balance, free: number, premium: number) =>
  balance.free + free < 0 || balance.premium + premium < 0;

/** The row that undoes `entry.txnId` exactly; refused when it would overdraw or undo a reversal. */
async function reversalOf(
  tx: Queryable,
  entry: Parameters<LedgerPort['reverse']>[0],
  balance: Balance,
): Promise<NewTxn> {
  const original = await rows.findRow(tx, entry.userId, entry.txnId);
  if (!original) throw new LedgerRefusal('not_found', `No transaction ${entry.txnId} in this account.`);
  if (original.reversed_by)
    throw new LedgerRefusal('invalid', `Transaction ${entry.txnId} is already reversed.`);
  if (original.reverses) throw new LedgerRefusal('invalid', 'A reversal cannot itself be reversed.');
  const free = -Number(original.free_delta);
  const premium = -Number(original.premium_delta);
  if (overdraws(balance, free, premium))
    throw new LedgerRefusal('insufficient', 'Reversing it would overdraw the balance.');
  return {
    ...entry,
    reference: entry.reference ?? entry.txnId,
    kind: entry.kind ?? 'reversal',
    free,
    premium,
    reverses: entry.txnId,
  };
}

export function createStandaloneLedger(
  db: Db,
  clock: Clock,
  options: StandaloneLedgerOptions = {},
): LedgerPort {
  const openingFree = options.openingFree ?? 0;

  /** The account's balance under its lock, after its opening grant. */
  async function locked(tx: Queryable, userId: string): Promise<Balance> {
    await tx.query('select pg_advisory_xact_lock(hashtext($1))', [userId]);
    const balance = await rows.sum(tx, userId);
    if (openingFree <= 0 || (await rows.findByKey(tx, userId, 'opening'))) return balance;
    const row: NewTxn = {
      userId,
      key: 'opening',
      cause: 'opening',
      kind: 'daily_grant',
      free: openingFree,
      premium: 0,
    };
    return (await append(tx, new Date(clock.now()), row, balance)).balance;
  }

  /** Runs a change under the account lock; a key seen before returns its row unchanged. */
  function change(entry: LedgerEntry, decide: (tx: Queryable, balance: Balance) => Promise<LedgerResult>) {
    return db.transaction(async (tx) => {
      const balance = await locked(tx, entry.userId);
      const earlier = await rows.findByKey(tx, entry.userId, entry.key);
      if (earlier) return { txn: earlier, balance, applied: false };
      return decide(tx, balance);
    });
  }

  const appendNow = (tx: Queryable, row: NewTxn, balance: Balance) =>
    append(tx, new Date(clock.now()), row, balance);

  return {
    balance: (userId) => db.transaction((tx) => locked(tx, userId)),

    credit(entry) {
      positiveInt(entry.amount, 'amount');
      const free = entry.part === 'free' ? entry.amount : 0;
      const kind = entry.kind ?? (entry.part === 'premium' ? 'purchase' : 'adjustment');
      return change(entry, (tx, balance) =>
        appendNow(tx, { ...entry, kind, free, premium: entry.amount - free }, balance),
      );
    },

    spend(entry) {
      positiveInt(entry.amount, 'amount');
      return db.transaction(async (tx): Promise<SpendResult> => {
        const balance = await locked(tx, entry.userId);
        const earlier = await rows.findByKey(tx, entry.userId, entry.key);
        if (earlier) return { ok: true, txn: earlier, balance, applied: false };
        if (balance.free + balance.premium < entry.amount)
          return { ok: false, balance, needed: entry.amount };
        const free = Math.min(balance.free, entry.amount);
        const row: NewTxn = { ...entry, kind: 'spend', free: -free, premium: free - entry.amount };
        return { ok: true, ...(await appendNow(tx, row, balance)) };
      });
    },

    adjust(entry) {
      const free = entry.free ?? 0;
      const premium = entry.premium ?? 0;
      if (!Number.isSafeInteger(free) || !Number.isSafeInteger(premium) || (free === 0 && premium === 0))
        throw new LedgerRefusal('invalid', 'An adjustment changes free or premium by a whole number.');
      return change(entry, async (tx, balance) => {
        if (overdraws(balance, free, premium))
          throw new LedgerRefusal('insufficient', 'The adjustment would overdraw the balance.');
        return appendNow(tx, { ...entry, kind: 'adjustment', free, premium }, balance);
      });
    },

    reverse(entry) {
      return change(entry, async (tx, balance) =>
        appendNow(tx, await reversalOf(tx, entry, balance), balance),
      );
    },

    list: (userId, query) => rows.list(db, userId, query),
    findByKey: (userId, key) => rows.findByKey(db, userId, key),

    filterByBalance: (query) => filterByBalance(db, query),
  };
}

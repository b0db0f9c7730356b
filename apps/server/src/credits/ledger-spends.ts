import { randomUUID } from 'node:crypto';
import { CREDIT_CURRENCY, type Balance, type Txn } from '@xtalk/protocol';
import type { Queryable } from '../store/index.js';
import { createGroupCommit } from '../store/index.js';
import { topUpIfDue, type LedgerDeps } from './ledger-account.js';
import {
  toTxn,
  TXN_COLUMNS,
  type AccountRow,
  type LedgerEntry,
  type LedgerResult,
  type TxnRow,
} from './ledger-rows.js';
import { tokyoDay } from './tokyo-day.js';
import { erasedAmong } from './erased-ids.js';

/*
 * Spends, group-committed (decision 0117): every engine call is paid before it is made, three or more per
 * translated message, and each spend alone was a transaction of five statements on PGlite's one
 * connection. Spends that arrive while a batch is being written go together in the next one: one
 * transaction, the accounts locked once each (in user order, so two nodes never deadlock), today's top-up
 * applied once, every row appended by one insert and every account's running sum written by one update.
 * Each spend is still its own row with its own idempotency key, decided in arrival order against the
 * balance the ones before it left: exactly what spending them one by one would do.
 */

export type SpendEntry = LedgerEntry & { amount: number };
export type SpendResult = ({ ok: true } & LedgerResult) | { ok: false; balance: Balance; needed: number };
/** A spend's result and, on the first spend of its account in the batch, the top-up that came first. */
export interface SpendOutcome {
  result: SpendResult;
  topUp: LedgerResult | undefined;
}

interface NewRow {
  id: string;
  entry: SpendEntry;
  free: number;
  premium: number;
}

/** Locks the batch's accounts (creating them) and applies today's top-ups; the balances after them. */
async function lockAccounts(
  tx: Queryable,
  deps: LedgerDeps,
  users: string[],
  allowances: Map<string, number>,
): Promise<{ balances: Map<string, Balance>; topUps: Map<string, LedgerResult> }> {
  const opened = await tx.query<{ user_id: string }>(
    `insert into credit_accounts (user_id) select unnest($1::text[]) on conflict (user_id) do nothing
     returning user_id`,
    [users],
  );
  // an account deleted while its spend was on the way stays closed: no balance, so the spend is refused
  const erased = await erasedAmong(
    tx,
    opened.rows.map((row) => row.user_id),
  );
  if (erased.length > 0)
    await tx.query('delete from credit_accounts where user_id = any($1::text[])', [erased]);
  const { rows } = await tx.query<AccountRow & { user_id: string }>(
    `select user_id, free, premium, daily_day from credit_accounts where user_id = any($1::text[])
     order by user_id for update`,
    [users],
  );
  const day = tokyoDay(deps.clock.now());
  const balances = new Map<string, Balance>();
  const topUps = new Map<string, LedgerResult>();
  for (const row of rows) {
    const { balance, topUp } = await topUpIfDue(
      tx,
      deps.clock,
      day,
      row.user_id,
      row,
      allowances.get(row.user_id) ?? 0,
    );
    balances.set(row.user_id, balance);
    if (topUp) topUps.set(row.user_id, topUp);
  }
  return { balances, topUps };
}

/** The rows the batch's idempotency keys already made, by `user\nkey`. */
async function earlierRows(tx: Queryable, entries: SpendEntry[]): Promise<Map<string, Txn>> {
  const { rows } = await tx.query<TxnRow & { owner: string; key: string }>(
    `select t.user_id as owner, t.idempotency_key as key, ${TXN_COLUMNS}
     from credit_txns t join unnest($1::text[], $2::text[]) as k(user_id, key)
       on t.user_id = k.user_id and t.idempotency_key = k.key`,
    [entries.map((entry) => entry.userId), entries.map((entry) => entry.key)],
  );
  return new Map(rows.map((row) => [`${row.owner}\n${row.key}`, toTxn(row)]));
}

async function appendRows(
  tx: Queryable,
  rows: NewRow[],
  balances: Map<string, Balance>,
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `insert into credit_txns (id, user_id, kind, free_delta, premium_delta, cause, reference,
       idempotency_key, reverses, created_at)
     select v.id, v.user_id, 'spend', v.free, v.premium, v.cause, v.reference, v.key, null, $8
     from unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::text[])
       with ordinality as v(id, user_id, free, premium, cause, reference, key, ord)
     order by v.ord`,
    [
      rows.map((row) => row.id),
      rows.map((row) => row.entry.userId),
      rows.map((row) => row.free),
      rows.map((row) => row.premium),
      rows.map((row) => row.entry.cause),
      rows.map((row) => row.entry.reference ?? null),
      rows.map((row) => row.entry.key),
      now,
    ],
  );
  const users = [...new Set(rows.map((row) => row.entry.userId))];
  await tx.query(
    `update credit_accounts a set free = v.free, premium = v.premium, updated_at = $4
     from unnest($1::text[], $2::bigint[], $3::bigint[]) as v(user_id, free, premium) where a.user_id = v.user_id`,
    [
      users,
      users.map((user) => balances.get(user)?.free ?? 0),
      users.map((user) => balances.get(user)?.premium ?? 0),
      now,
    ],
  );
}

/** Decides each spend in order against the running balances (refused whole when it does not fit). */
function decide(entries: SpendEntry[], balances: Map<string, Balance>, earlier: Map<string, Txn>, now: Date) {
  const rows: NewRow[] = [];
  const made = new Map<string, Txn>(earlier);
  const results = entries.map((entry): SpendResult => {
    const balance = balances.get(entry.userId) ?? { free: 0, premium: 0 };
    const seen = made.get(`${entry.userId}\n${entry.key}`);
    if (seen) return { ok: true, txn: seen, balance, applied: false };
    if (balance.free + balance.premium < entry.amount) return { ok: false, balance, needed: entry.amount };
    const free = -Math.min(balance.free, entry.amount);
    const premium = -(entry.amount + free);
    const next = { free: balance.free + free, premium: balance.premium + premium };
    balances.set(entry.userId, next);
    const txn: Txn = {
      id: randomUUID(),
      kind: 'spend',
      status: 'completed',
      currency: CREDIT_CURRENCY,
      amount: free + premium,
      free,
      premium,
      cause: entry.cause,
      reference: entry.reference ?? null,
      createdAt: now.getTime(),
    };
    made.set(`${entry.userId}\n${entry.key}`, txn);
    rows.push({ id: txn.id, entry, free, premium });
    return { ok: true, txn, balance: next, applied: true };
  });
  return { rows, results };
}

export function createSpends(deps: LedgerDeps) {
  return createGroupCommit<SpendEntry, SpendOutcome>(async (entries) => {
    const users = [...new Set(entries.map((entry) => entry.userId))].sort();
    // asked before the transaction opens: PGlite is one connection, nothing else may query inside it
    const allowances = new Map(
      await Promise.all(users.map(async (user) => [user, await deps.dailyAllowance(user)] as const)),
    );
    // in the background lane: a chat insert on PGlite's one connection never waits behind a batch
    return deps.db.background.transaction(async (tx) => {
      const now = new Date(deps.clock.now());
      const { balances, topUps } = await lockAccounts(tx, deps, users, allowances);
      const { rows, results } = decide(entries, balances, await earlierRows(tx, entries), now);
      await appendRows(tx, rows, balances, now);
      const firstOf = new Set<string>();
      return results.map((result, index) => {
        const user = entries[index]?.userId ?? '';
        const first = !firstOf.has(user);
        firstOf.add(user);
        return { result, topUp: first ? topUps.get(user) : undefined };
      });
    });
  });
}

import { randomBytes } from 'node:crypto';
import { TXN_LIST_DEFAULT_LIMIT, type Txn } from '@xtalk/protocol';
import type { Queryable } from '../store/index.js';
import { listTxns, type Reader } from './ledger-rows.js';
import { erasedIdHash } from './erased-ids.js';

/*
 * The ledger of a person who deletes their account. Accounts cannot be rewritten, so its rows stay, with
 * their amounts, causes and times; only the account they belong to is renamed to a pseudonym that
 * nothing else holds (docs/decisions/0213-a-deleted-account-leaves-its-messages-nameless.md). Bought
 * credits not yet spent are named to the person before they confirm, and forfeited with the account.
 */

/** A name for a deleted person's ledger that points back to no one. */
export function ledgerPseudonym(): string {
  return `erased-${randomBytes(12).toString('base64url')}`;
}

/** Bought credits the person still holds (the premium part of the balance as last committed). */
export async function unspentPaidCredits(db: Reader, userId: string): Promise<number> {
  const { rows } = await db.query<{ premium: string | number }>(
    'select premium from credit_accounts where user_id = $1',
    [userId],
  );
  return Number(rows[0]?.premium ?? 0);
}

/**
 * Moves the account's rows to `pseudonym` inside the deletion's transaction: the account row is copied
 * under the new name (its lock taken first, so no change of the balance runs between), the rows follow
 * it, and the old account row goes. The id's hash stays, so no change in flight opens the account again.
 */
export async function pseudonymiseLedger(tx: Queryable, userId: string, pseudonym: string): Promise<void> {
  await tx.query('insert into erased_ledgers (id_hash) values ($1) on conflict (id_hash) do nothing', [
    erasedIdHash(userId),
  ]);
  const { rows } = await tx.query('select 1 from credit_accounts where user_id = $1 for update', [userId]);
  if (rows.length === 0) return;
  await tx.query(
    `insert into credit_accounts (user_id, free, premium, daily_day, updated_at)
       select $2, free, premium, daily_day, updated_at from credit_accounts where user_id = $1`,
    [userId, pseudonym],
  );
  await tx.query('update credit_txns set user_id = $2 where user_id = $1', [userId, pseudonym]);
  await tx.query('delete from credit_accounts where user_id = $1', [userId]);
}

/** Every row of the person's ledger, newest first, page by page. */
export async function* ledgerOf(db: Reader, userId: string): AsyncGenerator<Txn> {
  for (let page = 0; ; page += 1) {
    const rows = await listTxns(db, userId, { limit: TXN_LIST_DEFAULT_LIMIT, page });
    yield* rows;
    if (rows.length < TXN_LIST_DEFAULT_LIMIT) return;
  }
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../store/index.js';
import { openMigratedDb } from '../testing/migrated-database.js';
import { ledgerPseudonym, pseudonymiseLedger } from './erased-accounts.js';
import { createLedger, LedgerError } from './ledger.js';

/*
 * A deleted account's ledger on PGlite: a change that arrives after the deletion (a request that was
 * authenticated before it) is refused and writes nothing under the old id, while the renamed rows stay.
 */

let db: Db;
const clock = { now: () => Date.parse('2026-03-10T03:00:00Z') };

beforeAll(async () => {
  db = await openMigratedDb();
});
afterAll(async () => {
  await db.close();
});

const rowsNaming = async (userId: string) => {
  const accounts = await db.query('select 1 from credit_accounts where user_id = $1', [userId]);
  const txns = await db.query('select 1 from credit_txns where user_id = $1', [userId]);
  return accounts.rows.length + txns.rows.length;
};

describe('a deleted account in the ledger', () => {
  it('refuses every later change and opens no account under the old id', async () => {
    const ledger = createLedger({ db, clock, dailyAllowance: () => 100 });
    await ledger.credit({ userId: 'leaving', key: 'buy', cause: 'order', amount: 5, part: 'premium' });
    const pseudonym = ledgerPseudonym();
    await db.transaction((tx) => pseudonymiseLedger(tx, 'leaving', pseudonym));

    await expect(ledger.balance('leaving')).rejects.toThrow(LedgerError);
    await expect(
      ledger.credit({ userId: 'leaving', key: 'late', cause: 'order', amount: 1, part: 'free' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(
      await ledger.spend({ userId: 'leaving', key: 'late-spend', cause: 'translation', amount: 1 }),
    ).toMatchObject({ ok: false });
    expect(await rowsNaming('leaving')).toBe(0);
    expect(await ledger.audit(pseudonym)).toEqual({
      stored: { free: 100, premium: 5 },
      sum: { free: 100, premium: 5 },
    });
  });

  it('still opens a new account for someone who never had one', async () => {
    const ledger = createLedger({ db, clock, dailyAllowance: () => 100 });
    expect(await ledger.balance('arriving')).toEqual({ free: 100, premium: 0 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../store/index.js';
import { scratchDatabase } from '../testing/scratch-database.js';
import { ledgerPseudonym, pseudonymiseLedger } from './erased-accounts.js';
import { createLedger, LedgerError } from './ledger.js';

/*
 * `npm run test:services`: a balance change that is waiting on the account's lock while the deletion holds
 * it (two connections of a real PostgreSQL) finds the account gone when the deletion commits, and writes
 * nothing under the old id; PGlite runs one transaction at a time, so only PostgreSQL can show the wait.
 */
const database = scratchDatabase('xtalk_erased');
/** Sessions of this database waiting on a lock (a row lock's wait names no database in pg_locks). */
const WAITING = `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
let db: Db;
const clock = { now: () => Date.parse('2026-03-10T03:00:00Z') };

beforeAll(async () => {
  await database.create();
  db = await openDb({ databaseUrl: database.url });
});
afterAll(async () => {
  await db?.close();
  await database.drop();
});

describe('a change in flight when its account is deleted', () => {
  it.each([
    ['a balance read', (ledger: ReturnType<typeof createLedger>, userId: string) => ledger.balance(userId)],
    [
      'a spend',
      (ledger: ReturnType<typeof createLedger>, userId: string) =>
        ledger.spend({ userId, key: 'late', cause: 'translation', amount: 1 }),
    ],
  ])('%s waits for the deletion, then writes nothing under the old id', async (_, change) => {
    const userId = `leaving-${Math.random().toString(36).slice(2)}`;
    const ledger = createLedger({ db, clock, dailyAllowance: () => 100 });
    await ledger.credit({ userId, key: 'buy', cause: 'order', amount: 5, part: 'premium' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const deletion = db.transaction(async (tx) => {
      await pseudonymiseLedger(tx, userId, ledgerPseudonym());
      locked();
      await held;
    });
    await lockTaken;
    const late = change(ledger, userId).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    // the change is waiting on the lock: the deletion commits only once PostgreSQL shows the wait
    await expect
      .poll(async () => (await database.query(WAITING)).length, { timeout: 10_000 })
      .toBeGreaterThan(0);
    release();
    await deletion;
    const outcome = await late;
    if ('error' in outcome) expect(outcome.error).toBeInstanceOf(LedgerError);
    else expect(outcome.value).toMatchObject({ ok: false });
    const named = await database.query(
      `select user_id from credit_accounts where user_id = $1
       union all select user_id from credit_txns where user_id = $1`,
      [userId],
    );
    expect(named).toEqual([]);
  });
});

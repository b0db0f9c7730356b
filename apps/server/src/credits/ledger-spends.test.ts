import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../store/index.js';
import { migrate } from '../store/index.js';
import { migratedSnapshot, openMigratedDb } from '../testing/migrated-database.js';
import { createLedger } from './ledger.js';

/*
 * Group-committed spends (decision 0117) on PGlite: a burst of spends is written in fewer transactions than
 * spends, each still its own row in arrival order, decided against the balance the ones before it left,
 * keys applied once, and all of it on disk across a restart. credits.services.ts runs the same ledger on
 * PostgreSQL with two nodes.
 */

const clock = { now: () => Date.parse('2026-03-10T03:00:00Z') };

/** The database, counting the transactions opened on it (spends run in its background lane). */
function counted(db: Db): Db & { transactions: () => number } {
  let transactions = 0;
  const transaction: Db['transaction'] = (fn) => {
    transactions += 1;
    return db.background.transaction(fn);
  };
  return {
    ...db,
    background: { ...db.background, transaction },
    transaction,
    transactions: () => transactions,
  };
}

async function rowsOf(db: Db, userId: string) {
  const { rows } = await db.query<{ idempotency_key: string; free_delta: string; premium_delta: string }>(
    'select idempotency_key, free_delta, premium_delta from credit_txns where user_id = $1 order by seq',
    [userId],
  );
  return rows.map((row) => ({
    key: row.idempotency_key,
    delta: Number(row.free_delta) + Number(row.premium_delta),
  }));
}

describe('group-committed spends on PGlite', () => {
  let db: ReturnType<typeof counted>;
  beforeAll(async () => {
    db = counted(await openMigratedDb());
  });
  afterAll(() => db.close());

  it('writes a burst in fewer transactions, one row per spend in arrival order, the balance exact', async () => {
    const ledger = createLedger({ db, clock, dailyAllowance: () => 1000 });
    const users = ['burst-a', 'burst-b', 'burst-c'];
    for (const user of users) await ledger.balance(user);
    const before = db.transactions();
    const spends = Array.from({ length: 60 }, (_, i) => ({
      userId: users[i % 3] as string,
      key: `burst-${i}`,
      cause: 'translation',
      amount: i + 1,
    }));
    const results = await Promise.all(spends.map((spend) => ledger.spend(spend)));
    expect(results.every((result) => result.ok)).toBe(true);
    expect(db.transactions() - before).toBeLessThan(spends.length / 2);
    for (const user of users) {
      const mine = spends.filter((spend) => spend.userId === user);
      expect(await rowsOf(db, user)).toEqual([
        { key: 'daily:2026-03-10', delta: 1000 },
        ...mine.map((spend) => ({ key: spend.key, delta: -spend.amount })),
      ]);
      const { stored, sum } = await ledger.audit(user);
      expect(stored).toEqual(sum);
      expect(stored.free).toBe(1000 - mine.reduce((total, spend) => total + spend.amount, 0));
    }
  });

  it('refuses whole the spend that does not fit, lets the later ones that do, applies a key once', async () => {
    const ledger = createLedger({ db, clock, dailyAllowance: () => 100 });
    const user = 'refusals';
    const changes: number[] = [];
    ledger.onChange((change) => changes.push(change.balance.free));
    const [first, second, third, again] = await Promise.all([
      ledger.spend({ userId: user, key: 'one', cause: 'translation', amount: 60 }),
      ledger.spend({ userId: user, key: 'two', cause: 'note', amount: 60 }),
      ledger.spend({ userId: user, key: 'three', cause: 'speech', amount: 30 }),
      ledger.spend({ userId: user, key: 'one', cause: 'translation', amount: 60 }),
    ]);
    expect(first).toMatchObject({ ok: true, applied: true, balance: { free: 40, premium: 0 } });
    expect(second).toEqual({ ok: false, balance: { free: 40, premium: 0 }, needed: 60 });
    expect(third).toMatchObject({ ok: true, applied: true, balance: { free: 10, premium: 0 } });
    expect(again).toMatchObject({ ok: true, applied: false });
    expect(again.ok && first.ok && again.txn.id).toBe(first.ok && first.txn.id);
    // the top-up, then each applied spend, told in order
    expect(changes).toEqual([100, 40, 10]);
    expect((await rowsOf(db, user)).map((row) => row.key)).toEqual(['daily:2026-03-10', 'one', 'three']);
  });
});

describe('group-committed spends on PGlite files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'xtalk-spends-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every acknowledged spend across a restart', async () => {
    // a new data directory, started from the migrated snapshot on the database's own thread
    let db = await openDb({ dataDir: dir, snapshot: await migratedSnapshot() });
    await migrate(db);
    let ledger = createLedger({ db, clock, dailyAllowance: () => 1000 });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        ledger.spend({ userId: 'durable', key: `d-${i}`, cause: 'translation', amount: 5 }),
      ),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    await db.close();

    db = await openDb({ dataDir: dir });
    ledger = createLedger({ db, clock, dailyAllowance: () => 1000 });
    expect((await rowsOf(db, 'durable')).map((row) => row.key)).toEqual([
      'daily:2026-03-10',
      ...Array.from({ length: 40 }, (_, i) => `d-${i}`),
    ]);
    expect(await ledger.audit('durable')).toEqual({
      stored: { free: 800, premium: 0 },
      sum: { free: 800, premium: 0 },
    });
    await db.close();
  });
});

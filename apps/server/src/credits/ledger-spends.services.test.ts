import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../store/index.js';
import { migrate } from '../store/index.js';
import { createLedger } from './ledger.js';
import { scratchDatabase } from '../testing/scratch-database.js';

/*
 * Group-committed spends (decision 0117) on a real PostgreSQL: two ledgers (as two nodes) on one database
 * spend a burst for the same accounts at once; every spend is one row, each node's spends keep their
 * arrival order, the balances are exact, and all of it reads back from a fresh connection pool.
 */
const database = scratchDatabase('xtalk_spends');
const clock = { now: () => Date.parse('2026-03-10T03:00:00Z') };

describe('group-committed spends on PostgreSQL', () => {
  let a: Db;
  let b: Db;
  beforeAll(async () => {
    await database.create();
    a = await openDb({ databaseUrl: database.url });
    await migrate(a);
    b = await openDb({ databaseUrl: database.url });
  });
  afterAll(async () => {
    await Promise.allSettled([a?.close(), b?.close()]);
    await database.drop();
  });

  it('keeps every spend, in order per node, the balances exact and durable', async () => {
    const ledgers = [a, b].map((db) => createLedger({ db, clock, dailyAllowance: () => 10_000 }));
    const users = ['pg-a', 'pg-b', 'pg-c'];
    const spends = Array.from({ length: 120 }, (_, i) => ({
      node: i % 2,
      entry: {
        userId: users[i % 3] as string,
        key: `n${i % 2}-${i}`,
        cause: 'translation',
        amount: (i % 7) + 1,
      },
    }));
    const results = await Promise.all(spends.map(({ node, entry }) => ledgers[node]!.spend(entry)));
    expect(results.every((result) => result.ok && result.applied)).toBe(true);

    const reader = await openDb({ databaseUrl: database.url });
    try {
      for (const user of users) {
        const { rows } = await reader.query<{ idempotency_key: string }>(
          "select idempotency_key from credit_txns where user_id = $1 and kind = 'spend' order by seq",
          [user],
        );
        const stored = rows.map((row) => row.idempotency_key);
        for (const node of [0, 1]) {
          const sent = spends
            .filter((s) => s.node === node && s.entry.userId === user)
            .map((s) => s.entry.key);
          expect(stored.filter((key) => key.startsWith(`n${node}-`))).toEqual(sent);
        }
        const spent = spends
          .filter((s) => s.entry.userId === user)
          .reduce((sum, s) => sum + s.entry.amount, 0);
        const ledger = createLedger({ db: reader, clock, dailyAllowance: () => 10_000 });
        expect(await ledger.audit(user)).toEqual({
          stored: { free: 10_000 - spent, premium: 0 },
          sum: { free: 10_000 - spent, premium: 0 },
        });
      }
    } finally {
      await reader.close();
    }
  });
});

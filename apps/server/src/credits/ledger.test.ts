import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../store/index.js';
import { createLedger, LedgerError, type BalanceChange, type Ledger } from './ledger.js';
import { openMigratedDb } from '../testing/migrated-database.js';

/*
 * The ledger on PGlite: no overdraft under concurrency, idempotency, free before premium, reversals as new
 * rows, and the daily top-up at Tokyo midnight with an injected clock. After every test each account's
 * stored balance equals the sum of its rows.
 */

let db: Db;
const touched = new Set<string>();
const clock = { now: () => Date.parse('2026-03-10T03:00:00Z') };

function ledgerFor(allowance = 1000): Ledger {
  return createLedger({ db, clock, dailyAllowance: () => allowance });
}

let n = 0;
function account(): string {
  const id = `user-${(n += 1)}`;
  touched.add(id);
  return id;
}

beforeAll(async () => {
  db = await openMigratedDb();
});
afterAll(async () => {
  await db.close();
});
afterEach(async () => {
  const ledger = ledgerFor();
  for (const userId of touched) {
    const { stored, sum } = await ledger.audit(userId);
    expect(stored, `balance of ${userId} equals the sum of its rows`).toEqual(sum);
    expect(stored.free).toBeGreaterThanOrEqual(0);
    expect(stored.premium).toBeGreaterThanOrEqual(0);
  }
  clock.now = () => Date.parse('2026-03-10T03:00:00Z');
});

describe('ledger', () => {
  it('starts an account with the daily allowance', async () => {
    const ledger = ledgerFor();
    const user = account();
    expect(await ledger.balance(user)).toEqual({ free: 1000, premium: 0 });
    const [grant] = await ledger.list(user, { limit: 100, page: 0 });
    expect(grant).toMatchObject({ kind: 'daily_grant', free: 1000, premium: 0, amount: 1000 });
  });

  it('never overdraws under 100 concurrent spends', async () => {
    const ledger = ledgerFor();
    const user = account();
    await ledger.credit({ userId: user, key: 'buy', cause: 'order', amount: 500, part: 'premium' });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        ledger.spend({ userId: user, key: `spend-${i}`, cause: 'translation', amount: 40 }),
      ),
    );
    const spent = results.filter((r) => r.ok).length;
    expect(spent).toBe(Math.floor(1500 / 40));
    expect(results.filter((r) => !r.ok)).toHaveLength(100 - spent);
    expect(await ledger.balance(user)).toEqual({ free: 0, premium: 1500 - spent * 40 });
  });

  it('applies the same idempotency key once', async () => {
    const ledger = ledgerFor();
    const user = account();
    const first = await ledger.credit({
      userId: user,
      key: 'order:1',
      cause: 'order',
      amount: 1000,
      part: 'premium',
    });
    const again = await ledger.credit({
      userId: user,
      key: 'order:1',
      cause: 'order',
      amount: 1000,
      part: 'premium',
    });
    expect(first.applied).toBe(true);
    expect(again.applied).toBe(false);
    expect(again.txn.id).toBe(first.txn.id);
    const spends = await Promise.all(
      [1, 2, 3].map(() => ledger.spend({ userId: user, key: 'msg:7', cause: 'translation', amount: 5 })),
    );
    expect(spends.filter((s) => s.ok && s.applied)).toHaveLength(1);
    expect(await ledger.balance(user)).toEqual({ free: 995, premium: 1000 });
  });

  it('spends free first, then premium, and refuses a spend that does not fit as a whole', async () => {
    const ledger = ledgerFor();
    const user = account();
    await ledger.credit({ userId: user, key: 'buy', cause: 'order', amount: 100, part: 'premium' });
    const spend = await ledger.spend({ userId: user, key: 's1', cause: 'translation', amount: 1050 });
    expect(spend.ok && spend.txn).toMatchObject({ free: -1000, premium: -50, amount: -1050 });
    const refused = await ledger.spend({ userId: user, key: 's2', cause: 'translation', amount: 51 });
    expect(refused).toEqual({ ok: false, balance: { free: 0, premium: 50 }, needed: 51 });
    expect(await ledger.balance(user)).toEqual({ free: 0, premium: 50 });
  });

  it('reverses with a new row, never an edit, and only once', async () => {
    const ledger = ledgerFor();
    const user = account();
    const spend = await ledger.spend({ userId: user, key: 's', cause: 'translation', amount: 30 });
    if (!spend.ok) throw new Error('spend refused');
    const refund = await ledger.reverse({
      userId: user,
      key: 'r',
      cause: 'failed',
      txnId: spend.txn.id,
      kind: 'refund',
    });
    expect(refund.txn).toMatchObject({ kind: 'refund', free: 30, reference: spend.txn.id });
    await expect(
      ledger.reverse({ userId: user, key: 'r2', cause: 'failed', txnId: spend.txn.id }),
    ).rejects.toThrow(LedgerError);
    const rows = await ledger.list(user, { limit: 100, page: 0 });
    expect(rows.map((row) => [row.kind, row.status])).toEqual([
      ['refund', 'completed'],
      ['spend', 'reversed'],
      ['daily_grant', 'completed'],
    ]);
    expect(await ledger.list(user, { limit: 100, page: 0, status: 'reversed' })).toHaveLength(1);
    expect(await ledger.balance(user)).toEqual({ free: 1000, premium: 0 });
  });

  it('refuses a reversal or adjustment that would overdraw, and changes nothing', async () => {
    const ledger = ledgerFor();
    const user = account();
    const buy = await ledger.credit({
      userId: user,
      key: 'buy',
      cause: 'order',
      amount: 100,
      part: 'premium',
    });
    await ledger.spend({ userId: user, key: 's', cause: 'translation', amount: 1080 });
    await expect(
      ledger.reverse({ userId: user, key: 'rv', cause: 'chargeback', txnId: buy.txn.id }),
    ).rejects.toThrow(/overdraw/);
    await expect(ledger.adjust({ userId: user, key: 'adj', cause: 'admin', premium: -21 })).rejects.toThrow(
      /overdraw/,
    );
    const adjusted = await ledger.adjust({
      userId: user,
      key: 'adj2',
      cause: 'admin',
      premium: -20,
      free: 5,
    });
    expect(adjusted.txn).toMatchObject({ kind: 'adjustment', free: 5, premium: -20 });
    expect(await ledger.balance(user)).toEqual({ free: 5, premium: 0 });
    await expect(ledger.spend({ userId: user, key: 'x', cause: 'c', amount: 0 })).rejects.toThrow(
      LedgerError,
    );
  });

  it('pages the transaction list newest first', async () => {
    const ledger = ledgerFor();
    const user = account();
    for (let i = 1; i <= 5; i += 1)
      await ledger.spend({ userId: user, key: `s${i}`, cause: 'translation', amount: i });
    const page0 = await ledger.list(user, { limit: 2, page: 0 });
    const page2 = await ledger.list(user, { limit: 2, page: 2 });
    expect(page0.map((t) => t.amount)).toEqual([-5, -4]);
    expect(page2.map((t) => t.amount)).toEqual([-1, 1000]);
    expect(await ledger.list(user, { limit: 2, page: 3 })).toEqual([]);
  });

  it('tells listeners about every change, including the lazy top-up', async () => {
    const ledger = ledgerFor();
    const user = account();
    const changes: BalanceChange[] = [];
    ledger.onChange((change) => changes.push(change));
    await ledger.balance(user);
    await ledger.spend({ userId: user, key: 's', cause: 'translation', amount: 10 });
    await ledger.spend({ userId: user, key: 's', cause: 'translation', amount: 10 });
    expect(changes.map((c) => [c.txn.kind, c.balance.free])).toEqual([
      ['daily_grant', 1000],
      ['spend', 990],
    ]);
    // the first spend of a new Tokyo day tells both the top-up and the spend
    clock.now = () => Date.parse('2026-03-11T03:00:00Z');
    await ledger.spend({ userId: user, key: 's2', cause: 'translation', amount: 10 });
    expect(changes.slice(2).map((c) => [c.txn.kind, c.balance.free])).toEqual([
      ['daily_grant', 1000],
      ['spend', 990],
    ]);
  });
});

describe('daily top-up at Tokyo midnight', () => {
  const at = (iso: string) => {
    clock.now = () => Date.parse(iso);
  };

  it.each([
    ['a day', '2026-03-10T14:59:59Z', '2026-03-10T15:00:00Z', '2026-03-11'],
    ['a month end', '2026-01-31T14:59:59.999Z', '2026-01-31T15:00:00Z', '2026-02-01'],
    ['February in a non-leap year', '2026-02-28T14:30:00Z', '2026-02-28T15:00:01Z', '2026-03-01'],
    ['the year end', '2026-12-31T14:59:59Z', '2026-12-31T15:00:00Z', '2027-01-01'],
  ])('tops free up once when %s turns in Tokyo', async (_name, before, after, newDay) => {
    const ledger = ledgerFor();
    const user = account();
    at(before);
    await ledger.credit({ userId: user, key: 'buy', cause: 'order', amount: 5000, part: 'premium' });
    await ledger.spend({ userId: user, key: 's1', cause: 'translation', amount: 1300 });
    expect(await ledger.balance(user)).toEqual({ free: 0, premium: 4700 });
    at(after);
    const [first, second] = await Promise.all([ledger.balance(user), ledger.balance(user)]);
    expect(first).toEqual({ free: 1000, premium: 4700 });
    expect(second).toEqual(first);
    const grants = (await ledger.list(user, { limit: 100, page: 0 })).filter((t) => t.kind === 'daily_grant');
    expect(grants.map((g) => g.reference)).toEqual([newDay, before.slice(0, 10)]);
  });

  it('does not accumulate unused free credits, and bought credits never expire', async () => {
    const ledger = ledgerFor();
    const user = account();
    at('2026-05-01T00:00:00Z');
    await ledger.credit({ userId: user, key: 'buy', cause: 'order', amount: 1000, part: 'premium' });
    await ledger.spend({ userId: user, key: 's', cause: 'translation', amount: 200 });
    at('2026-05-02T00:00:00Z');
    expect(await ledger.balance(user)).toEqual({ free: 1000, premium: 1000 });
    at('2027-05-02T00:00:00Z');
    expect(await ledger.balance(user)).toEqual({ free: 1000, premium: 1000 });
    // 23:59 JST is still the same Tokyo day as 00:00 JST: no second grant
    at('2027-05-02T14:59:00Z');
    await ledger.spend({ userId: user, key: 's2', cause: 'translation', amount: 10 });
    expect(await ledger.balance(user)).toEqual({ free: 990, premium: 1000 });
  });

  it('uses the allowance it is given (a guest allowance)', async () => {
    const ledger = ledgerFor(50);
    const user = account();
    expect(await ledger.balance(user)).toEqual({ free: 50, premium: 0 });
  });
});

import { openPglite, type EmbeddedPglite } from '@xtalk/pglite-engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerRows, walletOf } from './ledger-rows.js';

/*
 * The ledger statements over a table of the test's own, of the shape both ledgers keep: rows appended
 * and read back, found by key, summed, listed newest first and filtered on reversed.
 */

const TABLE_SQL = `
  create table test_ledger (
    seq bigserial unique,
    id text primary key,
    user_id text not null,
    kind text not null,
    free_delta bigint not null,
    premium_delta bigint not null,
    cause text not null,
    reference text,
    idempotency_key text not null,
    reverses text unique references test_ledger(id),
    created_at timestamptz not null,
    unique (user_id, idempotency_key)
  )`;

let db: EmbeddedPglite;
const rows = ledgerRows('test_ledger');
const now = new Date('2026-01-02T03:04:05.678Z');

beforeAll(async () => {
  db = await openPglite({});
  await db.transaction((tx) => tx.exec(TABLE_SQL));
});
afterAll(() => db.close());

describe('ledgerRows', () => {
  it('appends rows that read back as they were returned, by key and by id', async () => {
    const entry = { userId: 'u1', key: 'k1', cause: 'order', reference: 'ord_1' };
    const txn = await rows.insert(db, now, { ...entry, kind: 'purchase', free: 0, premium: 1000 });
    expect(txn).toMatchObject({ kind: 'purchase', status: 'completed', amount: 1000, premium: 1000 });
    expect(await rows.findByKey(db, 'u1', 'k1')).toEqual(txn);
    expect(await rows.findByKey(db, 'u2', 'k1')).toBeUndefined();
    const row = await rows.findRow(db, 'u1', txn.id);
    expect(row).toMatchObject({ id: txn.id, reverses: null, reversed_by: null });
    expect(await rows.findRow(db, 'u2', txn.id)).toBeUndefined();
    await expect(rows.insert(db, now, { ...entry, kind: 'purchase', free: 0, premium: 5 })).rejects.toThrow();
  });

  it('sums an account, lists it newest first and tells reversed rows', async () => {
    const spend = await rows.insert(db, now, {
      userId: 'u3',
      key: 's',
      cause: 'x',
      kind: 'spend',
      free: -2,
      premium: 0,
    });
    const grant = await rows.insert(db, now, {
      userId: 'u3',
      key: 'g',
      cause: 'daily',
      kind: 'daily_grant',
      free: 10,
      premium: 3,
    });
    const undo = await rows.insert(db, now, {
      userId: 'u3',
      key: 'r',
      cause: 'refund',
      kind: 'refund',
      free: 2,
      premium: 0,
      reverses: spend.id,
    });
    expect(await rows.sum(db, 'u3')).toEqual({ free: 10, premium: 3 });
    expect(await rows.sum(db, 'nobody')).toEqual({ free: 0, premium: 0 });
    const all = await rows.list(db, 'u3', { limit: 10, page: 0 });
    expect(all.map((t) => t.id)).toEqual([undo.id, grant.id, spend.id]);
    expect(all[2]?.status).toBe('reversed');
    const reversed = await rows.list(db, 'u3', { limit: 10, page: 0, status: 'reversed' });
    expect(reversed.map((t) => t.id)).toEqual([spend.id]);
    const paged = await rows.list(db, 'u3', { limit: 1, page: 1, status: 'completed' });
    expect(paged.map((t) => t.id)).toEqual([grant.id]);
    expect(walletOf({ user_id: 'u3', free: '10', premium: 3 })).toEqual({
      gctId: 'u3',
      currency: 't_free',
      free: 10,
      premium: 3,
    });
  });
});

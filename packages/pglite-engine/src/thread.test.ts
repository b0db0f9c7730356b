import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type EmbeddedPglite, type PgliteLane } from './open.js';
import { threadEngine } from './engine.js';
import { emptySnapshot } from './testing/empty-database.js';

/**
 * An engine on its own thread over a data directory made the way openPglite makes one from a snapshot
 * (the start from nothing, initdb in a child process, is the first block's own).
 */
async function startedEngine(dataDir: string) {
  const dir = join(dataDir, 'db');
  await (await openPglite({ dir, snapshot: await emptySnapshot() })).close();
  return threadEngine(dir, []);
}

/*
 * PGlite over a data directory runs on a thread of its own (decision 0118). Through it the database must behave as
 * in-process: rows, errors with their codes, transactions that commit or roll back, both lanes, and what
 * was committed is there after a reopen.
 */
describe('PGlite on its own thread', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'xtalk-thread-'));
  let db: EmbeddedPglite;
  beforeAll(async () => {
    db = await openPglite({ dir: join(dataDir, 'db') });
    await db.query('create table notes (id int primary key, body text not null, at timestamptz)');
  });
  afterAll(async () => {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers statements with rows and values typed as in-process', async () => {
    const at = new Date(1_790_000_000_000);
    const { rows } = await db.query('insert into notes values ($1, $2, $3) returning *', [1, 'one', at]);
    expect(rows).toEqual([{ id: 1, body: 'one', at }]);
  });

  it('passes database errors on with their code, and goes on serving', async () => {
    await expect(db.query('insert into notes values ($1, $2)', [1, 'again'])).rejects.toMatchObject({
      code: '23505',
      message: expect.stringContaining('duplicate key'),
    });
    expect((await db.background.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 1 }]);
  });

  it('commits a transaction that returns, rolls back one that throws', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into notes values ($1, $2)', [2, 'two']);
      await tx.query('insert into notes values ($1, $2)', [3, 'three']);
    });
    const failed = db.transaction(async (tx) => {
      await tx.query('insert into notes values ($1, $2)', [4, 'four']);
      throw new Error('changed my mind');
    });
    await expect(failed).rejects.toThrow('changed my mind');
    const { rows } = await db.query<{ id: number }>('select id from notes order by id');
    expect(rows.map((row) => row.id)).toEqual([1, 2, 3]);
  });

  it('refuses a transaction handle used after its transaction ended', async () => {
    let kept: Parameters<Parameters<PgliteLane['transaction']>[0]>[0] | undefined;
    await db.transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept!.query('select 1')).rejects.toThrow('already ended');
  });

  it('keeps what was committed across a close and a reopen', async () => {
    await db.close();
    db = await openPglite({ dir: join(dataDir, 'db') });
    const { rows } = await db.query<{ body: string }>('select body from notes order by id');
    expect(rows.map((row) => row.body)).toEqual(['one', 'two', 'three']);
  });

  it('says when its thread dies, fails every call with the reason instead of hanging, and closes quietly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xtalk-thread-dies-'));
    try {
      const engine = await startedEngine(dir);
      await engine.query('select 1');
      await engine.thread.terminate();
      const reason = await engine.lost;
      expect(reason.message).toMatch(/database thread has stopped/);
      await expect(engine.query('select 1')).rejects.toBe(reason);
      await expect(engine.close()).resolves.toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not call a deliberate close a loss', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xtalk-thread-closes-'));
    try {
      const engine = await startedEngine(dir);
      let lost: Error | undefined;
      void engine.lost.then((error) => (lost = error));
      await engine.close();
      // the thread's exit has been handled by now; a loss would have settled `lost` in a microtask
      await new Promise((resolve) => setImmediate(resolve));
      expect(lost).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to open, with the reason, when the thread cannot open the database, instead of hanging', async () => {
    const other = mkdtempSync(join(tmpdir(), 'xtalk-thread-gone-'));
    try {
      // a file where the data directory's parent should be: the thread cannot create the database
      writeFileSync(join(other, 'file'), 'not a directory');
      const refused = await threadEngine(join(other, 'file', 'db'), []).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).toMatch(/ENOTDIR|not a directory/i);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type EmbeddedPglite, type PgliteLane } from './open.js';
import { MAX_BACKGROUND_AHEAD, MAX_IN_FLIGHT } from './lanes.js';
import { emptySnapshot } from './testing/empty-database.js';

/*
 * PGlite's one connection in two lanes (decisions 0117, 0118): work that can wait (translation writes,
 * credit spends) is handed over only while no chat work waits, a few statements at a time, so a chat
 * insert never queues behind more than those; statements are pipelined, transactions have it alone.
 */
describe('the background lane on PGlite', () => {
  let db: EmbeddedPglite;
  beforeAll(async () => {
    db = await openPglite({ snapshot: await emptySnapshot() });
    await db.query('create table lane_log (n serial primary key, what text not null)');
  });
  afterAll(() => db.close());

  it('lets foreground work waiting go before background work waiting; each lane keeps its order', async () => {
    const done: string[] = [];
    const write = (lane: Pick<PgliteLane, 'query'>, what: string) =>
      lane.query('insert into lane_log (what) values ($1)', [what]).then(() => done.push(what));
    // more background statements than may be handed over at once, then a background transaction
    const background = Array.from({ length: MAX_BACKGROUND_AHEAD + 3 }, (_, i) => `background ${i + 1}`);
    const waiting = [
      ...background.map((what) => write(db.background, what)),
      db.background.transaction(async (tx) => {
        await tx.query('insert into lane_log (what) values ($1)', ['background transaction']);
        done.push('background transaction');
      }),
      write(db, 'chat 1'),
      db.transaction(async (tx) => {
        await tx.query('insert into lane_log (what) values ($1)', ['chat transaction']);
        done.push('chat transaction');
      }),
      write(db, 'chat 2'),
    ];
    await Promise.all(waiting);
    // the first MAX_BACKGROUND_AHEAD background statements were handed over before any chat work came;
    // every chat statement and transaction then went ahead of the background work still waiting
    const expected = [
      ...background.slice(0, MAX_BACKGROUND_AHEAD),
      'chat 1',
      'chat transaction',
      'chat 2',
      ...background.slice(MAX_BACKGROUND_AHEAD),
      'background transaction',
    ];
    expect(done).toEqual(expected);
    const { rows } = await db.query<{ what: string }>('select what from lane_log order by n');
    expect(rows.map((row) => row.what)).toEqual(expected);
  });

  it("never runs a statement inside another caller's transaction, however many are handed over", async () => {
    await db.query('create table lane_tx (n int primary key)');
    // a transaction that rolls back while statements queue up behind it: none of them may be undone
    const rolledBack = db.transaction(async (tx) => {
      await tx.query('insert into lane_tx values (0)');
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('undo');
    });
    const statements = Array.from({ length: MAX_IN_FLIGHT * 2 }, (_, i) =>
      (i % 2 ? db.background : db).query('insert into lane_tx values ($1)', [i + 1]),
    );
    await expect(rolledBack).rejects.toThrow('undo');
    await Promise.all(statements);
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from lane_tx');
    expect(rows[0]!.n).toBe(MAX_IN_FLIGHT * 2);
  });

  it('keeps serving both lanes after a failed statement in either', async () => {
    await expect(db.background.query('select * from no_such_table')).rejects.toThrow();
    await expect(db.query('select * from no_such_table')).rejects.toThrow();
    expect((await db.background.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    expect((await db.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from './db.js';

/*
 * PGlite's one connection in two lanes (decision 0117): work that can wait (translation writes, credit
 * spends) starts only when nothing else is waiting, so a chat insert never queues behind it.
 */
describe('the background lane on PGlite', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({});
    await db.query('create table lane_log (n serial primary key, what text not null)');
  });
  afterAll(() => db.close());

  it('lets foreground work waiting go before background work waiting; each lane keeps its order', async () => {
    const done: string[] = [];
    const write = (lane: Pick<Db, 'query'>, what: string) =>
      lane.query('insert into lane_log (what) values ($1)', [what]).then(() => done.push(what));
    const running = write(db.background, 'background 1');
    const waiting = [
      write(db.background, 'background 2'),
      db.background.transaction(async (tx) => {
        await tx.query('insert into lane_log (what) values ($1)', ['background 3']);
        done.push('background 3');
      }),
      write(db, 'chat 1'),
      write(db, 'chat 2'),
    ];
    await Promise.all([running, ...waiting]);
    const expected = ['background 1', 'chat 1', 'chat 2', 'background 2', 'background 3'];
    expect(done).toEqual(expected);
    const { rows } = await db.query<{ what: string }>('select what from lane_log order by n');
    expect(rows.map((row) => row.what)).toEqual(expected);
  });

  it('keeps serving both lanes after a failed statement in either', async () => {
    await expect(db.background.query('select * from no_such_table')).rejects.toThrow();
    await expect(db.query('select * from no_such_table')).rejects.toThrow();
    expect((await db.background.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    expect((await db.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});

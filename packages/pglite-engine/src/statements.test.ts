import { PGlite, protocol, types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PREPARED, preparedStatements } from './statements.js';
import { emptyDataDir } from './testing/empty-database.js';

/*
 * Prepared statements on PGlite (decision 0118) must be invisible to callers: the same rows, types and
 * errors as PGlite's own `query`, however many distinct statements come and go.
 */
describe('prepared statements on PGlite', () => {
  let db: PGlite;
  let statements: ReturnType<typeof preparedStatements>;
  beforeAll(async () => {
    db = await PGlite.create({ loadDataDir: await emptyDataDir() });
    statements = preparedStatements(db, { protocol, types });
    await db.exec(`create table kinds (
      id text primary key, n integer, big bigint, at timestamptz, doc jsonb, flag boolean, bytes bytea,
      tags text[], price numeric)`);
  });
  afterAll(() => db.close());

  it('returns the rows PGlite returns, type for type, for values given and read back', async () => {
    const insert =
      'insert into kinds values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id, n, big, at, doc, flag, bytes, tags, price';
    const values = [
      [
        'a',
        7,
        1_790_000_000_000,
        new Date(1_790_000_000_123),
        { x: [1, 'two'] },
        true,
        new Uint8Array([0, 255]),
        ['p', 'q'],
        '1.50',
      ],
      ['b', null, null, null, null, false, null, [], null],
    ];
    for (const row of values) {
      const ours = await statements.query(insert, row);
      const theirs = await db.query('select * from kinds where id = $1', [row[0]]);
      expect(ours.rows).toEqual(theirs.rows);
    }
    const mine = await statements.query('select * from kinds order by id');
    expect(mine.rows).toEqual((await db.query('select * from kinds order by id')).rows);
    expect(mine.rows[0]).toMatchObject({ n: 7, big: 1_790_000_000_000, flag: true, doc: { x: [1, 'two'] } });
    expect((mine.rows[0] as { at: Date }).at).toEqual(new Date(1_790_000_000_123));
  });

  it('throws the database error with its code, and the statement stays usable', async () => {
    const insert = 'insert into kinds (id) values ($1)';
    await statements.query(insert, ['dup']);
    const refusal = await statements.query(insert, ['dup']).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: '23505' });
    // the very error PGlite's own query throws: its class, message and fields
    const theirs = await db.query(insert, ['dup']).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(protocol.messages.DatabaseError);
    const fields = (error: unknown) => {
      const { message, code, constraint, detail, table, schema, severity } = error as Record<string, unknown>;
      return { message, code, constraint, detail, table, schema, severity };
    };
    expect(fields(refusal)).toEqual(fields(theirs));
    expect(refusal).toMatchObject({ constraint: 'kinds_pkey', table: 'kinds' });
    await statements.query(insert, ['not-dup']);
    await expect(statements.query('select nope from kinds')).rejects.toMatchObject({ code: '42703' });
    expect(
      (await statements.query('select count(*)::int as n from kinds where id like $1', ['%dup'])).rows,
    ).toEqual([{ n: 2 }]);
  });

  it('keeps answering past its cache size: the least recently used statements are closed and come back', async () => {
    for (let i = 0; i < MAX_PREPARED + 20; i++) {
      const { rows } = await statements.query(`select $1::int + ${i} as v`, [1]);
      expect(rows).toEqual([{ v: 1 + i }]);
    }
    // the first ones were evicted and closed on the server: preparing them again must work
    expect((await statements.query('select $1::int + 0 as v', [5])).rows).toEqual([{ v: 5 }]);
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements');
    expect(rows[0]!.n).toBeLessThanOrEqual(MAX_PREPARED);
  });

  it('prepares a statement again when its table changed shape under it', async () => {
    await db.exec('create table shifting (id int primary key)');
    await db.exec('insert into shifting values (1)');
    const read = 'select * from shifting where id = $1';
    expect((await statements.query(read, [1])).rows).toEqual([{ id: 1 }]);
    await db.exec("alter table shifting add column label text not null default 'new'");
    expect((await statements.query(read, [1])).rows).toEqual([{ id: 1, label: 'new' }]);
  });
});

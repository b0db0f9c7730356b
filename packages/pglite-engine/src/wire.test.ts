import { PGlite, protocol } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDataDir } from './testing/empty-database.js';
import { bindExecuteSync, ReplyReader, type WireValue } from './wire.js';

/*
 * The statement run's own wire code (docs/decisions/0128) against PGlite's: the same bytes out, and the
 * same rows and error read back, however PGlite splits its answer into chunks.
 */
const { serialize } = protocol;

describe('bindExecuteSync', () => {
  const cases: Array<{ name: string; values: WireValue[]; closes?: string[] }> = [
    { name: 's1', values: [] },
    { name: 's12', values: ['plain', '', null, 'ありがとう 👋', '{"a":[1,"é"]}'] },
    { name: 's3', values: [new Uint8Array([0, 1, 255]), 'after bytes', null], closes: ['s1', 's200'] },
    { name: 's4', values: Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? null : `v${i}`)) },
  ];
  it.each(cases)('writes what PGlite writes for $name', ({ name, values, closes = [] }) => {
    const theirs = Buffer.concat([
      ...closes.map((closed) => serialize.close({ type: 'S', name: closed })),
      serialize.bind({ statement: name, values }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    expect(bindExecuteSync(name, values, closes).equals(theirs)).toBe(true);
  });
});

describe('ReplyReader', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create({ loadDataDir: await emptyDataDir() });
    await db.exec(`create table notes (id int primary key, body text, extra text);
      insert into notes select g, repeat('ノート', g), case when g % 2 = 0 then null else 'x' end
      from generate_series(1, 40) g`);
    const prepare = (name: string, text: string) =>
      db.execProtocol(Buffer.concat([serialize.parse({ name, text }), serialize.sync()]));
    await prepare('rows', 'select id, body, extra from notes where id <= $1 order by id');
    await prepare('dup', 'insert into notes (id) values ($1)');
  });
  afterAll(() => db.close());

  /** The raw answer to a run, and what PGlite's own parser makes of it. */
  async function answer(statement: string, values: WireValue[]) {
    const raw = await db.execProtocolRaw(bindExecuteSync(statement, values));
    const messages: unknown[] = [];
    new protocol.Parser().parse(raw, (message) => messages.push(message));
    return { raw, messages };
  }

  function read(raw: Uint8Array, cuts: number[]): ReplyReader {
    const reader = new ReplyReader();
    let from = 0;
    for (const cut of [...cuts, raw.length]) {
      // as PGlite does, the chunk's memory is reused once it has been handed over
      const chunk = raw.slice(from, cut);
      reader.push(chunk);
      chunk.fill(0);
      from = cut;
    }
    return reader;
  }

  it('reads every DataRow as PGlite parses it, in one chunk or split at any byte', async () => {
    const { raw, messages } = await answer('rows', ['40']);
    const theirs = messages
      .filter((message) => message instanceof protocol.messages.DataRowMessage)
      .map((message) => (message as InstanceType<typeof protocol.messages.DataRowMessage>).fields);
    expect(theirs).toHaveLength(40);
    expect(read(raw, []).rows).toEqual(theirs);
    for (let cut = 1; cut < raw.length; cut++) expect(read(raw, [cut]).rows).toEqual(theirs);
    const everyByte = Array.from({ length: raw.length - 1 }, (_, index) => index + 1);
    expect(read(raw, everyByte).rows).toEqual(theirs);
    expect(read(raw, everyByte).error).toBeUndefined();
  });

  it('keeps the ErrorResponse whole, for PGlite to parse into the error it would throw', async () => {
    await answer('dup', ['41']);
    const { raw, messages } = await answer('dup', ['41']);
    const theirs = messages.find((message) => message instanceof protocol.messages.DatabaseError);
    expect(theirs).toMatchObject({ code: '23505', constraint: 'notes_pkey' });
    for (const cuts of [[], [3], [raw.length - 2], Array.from({ length: raw.length - 1 }, (_, i) => i + 1)]) {
      const reader = read(raw, cuts);
      expect(reader.rows).toEqual([]);
      const parsed: unknown[] = [];
      new protocol.Parser().parse(reader.error!, (message) => parsed.push(message));
      expect(parsed).toEqual([theirs]);
    }
  });
});

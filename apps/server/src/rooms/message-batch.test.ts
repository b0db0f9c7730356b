import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsersRepo } from '../accounts/index.js';
import type { Db } from '../store/index.js';
import { recordingStatements } from '../testing/recording-db.js';
import { createMessagesRepo } from './messages-repo.js';
import type { NewMessage, StoredMessage } from './messages-repo.js';
import { createRoomsRepo } from './rooms-repo.js';
import { openMigratedDb } from '../testing/migrated-database.js';

/*
 * Group commit of a room's waiting messages on PGlite (decision 0112): the ids and offsets a batch
 * takes are the ones storing the messages one by one would give, gap-free even when batches and single
 * messages of one room run at once; a resent client id is a duplicate, never a second message.
 */

let db: Db;
const clock = { now: () => 1_000 };
let repo: ReturnType<typeof createMessagesRepo>;
let rooms: ReturnType<typeof createRoomsRepo>;
/** The two authors' user ids, by the names the cases call them. */
const authors = { u: '', v: '' };

beforeAll(async () => {
  db = await openMigratedDb();
  const users = createUsersRepo(db);
  authors.u = (await users.createGuest()).id;
  authors.v = (await users.createGuest()).id;
  repo = createMessagesRepo(db, clock);
  rooms = createRoomsRepo(db, clock);
}, 120_000);
afterAll(() => db.close());

const newRoom = () => rooms.createRoom(authors.u);

const message = (
  roomId: string,
  text: string,
  author: keyof typeof authors = 'u',
  clientId?: string,
): NewMessage => ({
  roomId,
  userId: authors[author],
  username: `g-${author}`,
  displayUsername: `G ${author}`,
  language: 'en',
  text,
  clientId,
});

function values(results: PromiseSettledResult<StoredMessage>[]): StoredMessage[] {
  return results.map((result) => {
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  });
}

/** The offsets of a room's stored messages, in order, as a joiner's replay reads them. */
async function storedOffsets(roomId: string): Promise<number[]> {
  const stored = await rooms.listMessages(roomId, 1000);
  return stored.map((frame) => frame.offset!).sort((a, b) => a - b);
}

describe('a batch of one room’s messages', () => {
  it('takes consecutive offsets and increasing ids in the order given, as one by one would', async () => {
    const roomId = await newRoom();
    const first = await repo.insertMessage(message(roomId, 'zero', 'u', 'c0'));
    const batch = values(
      await repo.insertMessages([
        message(roomId, 'one', 'u', 'c1'),
        message(roomId, 'two', 'v'),
        message(roomId, 'three', 'v', 'c3'),
      ]),
    );
    expect(batch.map((stored) => [stored.message.message, stored.message.offset, stored.duplicate])).toEqual([
      ['one', 2, false],
      ['two', 3, false],
      ['three', 4, false],
    ]);
    const ids = [first, ...batch].map((stored) => stored.message.id);
    expect(ids).toEqual([1000, 1001, 1002, 1003]); // the clock stands still: each id bumps past the last
    expect(batch[1]!.message).toMatchObject({ username: 'g-v', displayUsername: 'G v', language: 'en' });
    expect(batch[2]!.message.clientId).toBe('c3');
    const after = await repo.insertMessage(message(roomId, 'four'));
    expect(after.message).toMatchObject({ offset: 5, id: 1004 });
  });

  it('answers a resent client id as the stored message and leaves no gap', async () => {
    const roomId = await newRoom();
    const original = await repo.insertMessage(message(roomId, 'hello', 'u', 'again'));
    const batch = values(
      await repo.insertMessages([
        message(roomId, 'new one', 'u', 'n1'),
        message(roomId, 'hello', 'u', 'again'),
        message(roomId, 'new two', 'v', 'again'), // another author's id of the same name is their own
      ]),
    );
    expect(batch.map((stored) => [stored.message.message, stored.message.offset, stored.duplicate])).toEqual([
      ['new one', 2, false],
      ['hello', 1, true],
      ['new two', 3, false],
    ]);
    expect(batch[1]!.message.id).toBe(original.message.id);
    expect(await storedOffsets(roomId)).toEqual([1, 2, 3]);
  });

  it('stores two copies of one new client id in a batch once', async () => {
    const roomId = await newRoom();
    const batch = values(
      await repo.insertMessages([
        message(roomId, 'before', 'v'),
        message(roomId, 'twice', 'u', 'dup'),
        message(roomId, 'twice', 'u', 'dup'),
        message(roomId, 'after', 'v'),
      ]),
    );
    expect(batch.map((stored) => [stored.message.message, stored.duplicate])).toEqual([
      ['before', false],
      ['twice', false],
      ['twice', true],
      ['after', false],
    ]);
    expect(batch[2]!.message.offset).toBe(batch[1]!.message.offset);
    expect(await storedOffsets(roomId)).toEqual([1, 2, 3]);
  });

  it('keeps offsets gap-free and unique while batches and single messages of a room run at once', async () => {
    const roomId = await newRoom();
    const work: Promise<StoredMessage[]>[] = [];
    for (let round = 0; round < 10; round++) {
      const batch = [0, 1, 2].map((i) =>
        message(roomId, `b${round}.${i}`, i % 2 ? 'u' : 'v', `b${round}.${i}`),
      );
      work.push(repo.insertMessages(batch).then(values));
      work.push(repo.insertMessage(message(roomId, `s${round}`)).then((stored) => [stored]));
    }
    const stored = (await Promise.all(work)).flat();
    expect(stored).toHaveLength(40);
    expect(stored.every((one) => !one.duplicate)).toBe(true);
    const offsets = stored.map((one) => one.message.offset!).sort((a, b) => a - b);
    expect(offsets).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await storedOffsets(roomId)).toEqual(offsets);
    // ids follow offsets
    const byOffset = [...stored].sort((a, b) => a.message.offset! - b.message.offset!);
    const ids = byOffset.map((one) => one.message.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('refuses every message of a batch for a room that does not exist, storing nothing', async () => {
    const results = await repo.insertMessages([message('NOSUCH', 'a'), message('NOSUCH', 'b', 'u', 'x')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(await storedOffsets('NOSUCH')).toEqual([]);
  });

  it('stores a batch of one with the single statement: stored, a resend answered, a missing room refused', async () => {
    const { db: watched, statements } = recordingStatements(db);
    const single = createMessagesRepo(watched, clock);
    const roomId = await newRoom();
    const [first] = values(await single.insertMessages([message(roomId, 'alone', 'u', 'one')]));
    expect(first).toMatchObject({ duplicate: false, message: { message: 'alone', offset: 1 } });
    const [again] = values(await single.insertMessages([message(roomId, 'alone', 'u', 'one')]));
    expect(again).toMatchObject({ duplicate: true, message: { id: first!.message.id, offset: 1 } });
    const [missing] = await single.insertMessages([message('NOSUCH', 'lost')]);
    expect(missing?.status).toBe('rejected');
    expect(await storedOffsets(roomId)).toEqual([1]);
    // the batch statement (unnest) was never used for these
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.some((sql) => sql.includes('unnest'))).toBe(false);
  });
});

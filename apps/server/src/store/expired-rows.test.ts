import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db.js';
import { createSignInStore } from '../accounts/index.js';
import { deleteExpiredAuthRows } from '../accounts/index.js';
import { createUsersRepo } from '../accounts/index.js';
import { systemClock } from '../clock.js';
import { deleteExpiredSessions, trimRoomChanges } from '../rooms/index.js';
import { createRoomLog } from '../rooms/index.js';
import { createRoomsRepo } from '../rooms/index.js';
import { logRoomChanges, markBotCheckUsed, usedBotChecks } from '../testing/seed/index.js';
import { deleteExpiredRows } from './expired-rows.js';
import { openMigratedDb } from '../testing/migrated-database.js';

describe('expired rows', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openMigratedDb();
  });
  afterAll(() => db.close());

  it('removes what has expired from every expiring table and keeps the rest', async () => {
    const past = new Date(1_000_000);
    const future = new Date(3_000_000);
    // the stores stamp expiries by this clock; their readers, at it, still find every row that is there
    const clock = { now: () => 0 };
    const rooms = createRoomsRepo(db, clock);
    const signIn = createSignInStore(db, clock);
    const userId = (await createUsersRepo(db).createGuest()).id;
    const roomId = await rooms.createRoom(userId);
    const sessions: Record<string, string> = {};
    const codes: Record<string, string> = {};
    for (const [id, expires] of [
      ['old', past],
      ['new', future],
    ] as const) {
      const ttlSeconds = expires.getTime() / 1000;
      sessions[id] = (await rooms.createSession(userId, roomId, ttlSeconds)).id;
      await markBotCheckUsed(db, id, expires);
      await signIn.saveFlow(
        { state: id, nonce: 'n', codeVerifier: 'v', redirectUri: 'r', browserHash: 'b' },
        ttlSeconds,
      );
      codes[id] = await signIn.issueCode(userId, ttlSeconds);
    }
    await deleteExpiredRows(
      [(now) => deleteExpiredAuthRows(db, now), (now) => deleteExpiredSessions(db, now)],
      new Date(2_000_000),
    );
    /** The names of the rows `find` still finds. */
    const left = async (find: (name: string) => Promise<unknown>) => {
      const names: string[] = [];
      for (const name of ['old', 'new']) if ((await find(name)) !== undefined) names.push(name);
      return names;
    };
    expect(await left((name) => rooms.findSession(sessions[name]!))).toEqual(['new']);
    expect(await usedBotChecks(db)).toEqual(['new']);
    expect(await left((name) => signIn.takeFlow(name))).toEqual(['new']);
    expect(await left((name) => signIn.redeemCode(codes[name]!))).toEqual(['new']);
  });

  it('trims the resume log to the last `keep` offsets of each room and keeps the rest', async () => {
    const rooms = createRoomsRepo(db, systemClock);
    const log = createRoomLog(db);
    const creator = (await createUsersRepo(db).createGuest()).id;
    const trimmed: Record<string, string> = {};
    for (const [name, last] of [
      ['TRIMAAA', 10],
      ['TRIMBBB', 3],
    ] as const) {
      const roomId = await rooms.createRoom(creator);
      await logRoomChanges(db, roomId, last);
      trimmed[name] = roomId;
    }
    await trimRoomChanges(db, 4);
    const rows: { room_id: string; seq: number }[] = [];
    for (const [name, roomId] of Object.entries(trimmed)) {
      const { offset } = (await log.position(roomId))!;
      for (const frame of await log.readSince(roomId, 0, offset, 100)) {
        rows.push({ room_id: name, seq: frame.offset });
      }
    }
    expect(rows.map((row) => `${row.room_id}:${Number(row.seq)}`)).toEqual([
      'TRIMAAA:7',
      'TRIMAAA:8',
      'TRIMAAA:9',
      'TRIMAAA:10',
      'TRIMBBB:1',
      'TRIMBBB:2',
      'TRIMBBB:3',
    ]);
  });
});

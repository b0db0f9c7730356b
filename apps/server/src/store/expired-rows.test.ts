import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from './db.js';
import { deleteExpiredAuthRows } from '../accounts/users/expired-rows.js';
import { deleteExpiredSessions, trimRoomChanges } from '../rooms/expired-rows.js';
import { deleteExpiredRows } from './expired-rows.js';
import { migrate } from './migrations.js';

describe('expired rows', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({});
    await migrate(db);
  });
  afterAll(() => db.close());

  it('removes what has expired from every expiring table and keeps the rest', async () => {
    const past = new Date(1_000_000);
    const future = new Date(3_000_000);
    await db.query("insert into users (id, provider, subject, username) values ('u', 'guest', 's', 'g-u')");
    await db.query("insert into rooms (id) values ('ABCDEFG')");
    for (const [id, expires] of [
      ['old', past],
      ['new', future],
    ] as const) {
      await db.query(
        "insert into sessions (id, user_id, room_id, expires_at) values ($1, 'u', 'ABCDEFG', $2)",
        [id, expires],
      );
      await db.query('insert into botcheck_used (id, expires_at) values ($1, $2)', [id, expires]);
      await db.query(
        "insert into auth_flows (state, nonce, code_verifier, redirect_uri, browser_hash, expires_at) values ($1, 'n', 'v', 'r', 'b', $2)",
        [id, expires],
      );
      await db.query("insert into auth_codes (code_hash, user_id, expires_at) values ($1, 'u', $2)", [
        id,
        expires,
      ]);
    }
    await deleteExpiredRows(
      [(now) => deleteExpiredAuthRows(db, now), (now) => deleteExpiredSessions(db, now)],
      new Date(2_000_000),
    );
    const left = async (sql: string) => (await db.query<{ k: string }>(sql)).rows.map((row) => row.k);
    expect(await left('select id as k from sessions')).toEqual(['new']);
    expect(await left('select id as k from botcheck_used')).toEqual(['new']);
    expect(await left('select state as k from auth_flows')).toEqual(['new']);
    expect(await left('select code_hash as k from auth_codes')).toEqual(['new']);
  });

  it('trims the resume log to the last `keep` offsets of each room and keeps the rest', async () => {
    for (const [room, last] of [
      ['TRIMAAA', 10],
      ['TRIMBBB', 3],
    ] as const) {
      await db.query('insert into rooms (id, last_seq) values ($1, $2)', [room, last]);
      for (let seq = 1; seq <= last; seq += 1) {
        await db.query("insert into room_changes (room_id, seq, frame) values ($1, $2, '{}')", [room, seq]);
      }
    }
    await trimRoomChanges(db, 4);
    const { rows } = await db.query<{ room_id: string; seq: string | number }>(
      "select room_id, seq from room_changes where room_id like 'TRIM%' order by room_id, seq",
    );
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

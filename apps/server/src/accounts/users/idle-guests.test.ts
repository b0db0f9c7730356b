import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../store/db.js';
import { migrate } from '../../store/migrations.js';
import { deleteIdleGuests } from '../../use-cases/guest-rooms.js';

describe('idle guests', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({});
    await migrate(db);
  });
  afterAll(() => db.close());

  it('removes guests idle past the retention with their memberships and sessions, keeps the rest', async () => {
    const day = 24 * 3600_000;
    const now = 100 * day;
    const at = (t: number) => new Date(t);
    const user = (id: string, provider: string, createdAt: number) =>
      db.query(
        'insert into users (id, provider, subject, username, created_at, player_data) values ($1, $2, $1, $1, $3, \'{"a":1}\')',
        [id, provider, at(createdAt)],
      );
    await user('idle-guest', 'guest', now - 40 * day);
    await user('active-guest', 'guest', now - 40 * day);
    await user('new-guest', 'guest', now - day);
    await user('old-member', 'ggl', now - 400 * day);
    await db.query("insert into rooms (id, created_by) values ('ROOMONE', 'idle-guest')");
    await db.query(
      "insert into room_members (user_id, room_id, updated_at) values ('idle-guest', 'ROOMONE', $1)",
      [at(now - 35 * day)],
    );
    await db.query(
      "insert into room_members (user_id, room_id, updated_at) values ('active-guest', 'ROOMONE', $1)",
      [at(now - 2 * day)],
    );
    await db.query(
      "insert into sessions (id, user_id, room_id, expires_at) values ('s-idle', 'idle-guest', 'ROOMONE', $1)",
      [at(now - 34 * day)],
    );
    await db.query(
      "insert into messages (room_id, id, user_id, username, language, text) values ('ROOMONE', 1, 'idle-guest', 'idle-guest', 'en', 'hello')",
    );
    // the sign-in links go with the guest; an unverified email account asked for goes too
    await db.query(
      "insert into player_links (user_id, provider, subject) values ('idle-guest', 'guest', 'idle-guest'), ('active-guest', 'guest', 'active-guest')",
    );
    await db.query(
      "insert into email_accounts (email, pending_user_id, password_hash) values ('idle@example.test', 'idle-guest', 'x')",
    );

    expect(await deleteIdleGuests(db, at(now - 30 * day))).toBe(1);

    const ids = async (sql: string) => (await db.query<{ k: string }>(sql)).rows.map((row) => row.k).sort();
    expect(await ids('select id as k from users')).toEqual(['active-guest', 'new-guest', 'old-member']);
    expect(await ids('select user_id as k from room_members')).toEqual(['active-guest']);
    expect(await ids('select id as k from sessions')).toEqual([]);
    expect(await ids('select user_id as k from player_links')).toEqual(['active-guest']);
    expect((await db.query('select pending_user_id from email_accounts')).rows).toEqual([
      { pending_user_id: null },
    ]);
    // the room's history keeps the message, no longer linked to the removed guest
    const { rows } = await db.query<{ user_id: string | null; text: string }>(
      'select user_id, text from messages',
    );
    expect(rows).toEqual([{ user_id: null, text: 'hello' }]);
    expect((await db.query<{ created_by: string | null }>('select created_by from rooms')).rows).toEqual([
      { created_by: null },
    ]);
    expect(await deleteIdleGuests(db, at(now - 30 * day))).toBe(0);
  });
});

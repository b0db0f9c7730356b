import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoomsRepo } from '../../rooms/index.js';
import type { Db } from '../../store/index.js';
import {
  ageRoomMembership,
  backdateUser,
  pendingEmailRequesters,
  seedPendingEmailAccount,
  storedRoomRows,
} from '../../testing/seed/index.js';
import { createPlayerLinks, deleteIdleGuests } from '../../use-cases/index.js';
import { createUsersRepo } from './users-repo.js';
import { openMigratedDb } from '../../testing/migrated-database.js';

describe('idle guests', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openMigratedDb();
  });
  afterAll(() => db.close());

  it('removes guests idle past the retention with their memberships and sessions, keeps the rest', async () => {
    const day = 24 * 3600_000;
    const now = 100 * day;
    const at = (t: number) => new Date(t);
    let time = now;
    const rooms = createRoomsRepo(db, { now: () => time });
    const users = createUsersRepo(db);
    const links = createPlayerLinks(db, { endAll: async () => undefined });
    // every user comes with its sign-in link, as signing in makes it
    const user = async (provider: 'guest' | 'ggl', createdAt: number) => {
      const row =
        provider === 'guest'
          ? await users.createGuest()
          : await users.findOrCreateOidcUser({ issuer: 'https://issuer.test', subject: `old-${createdAt}` });
      await users.setPlayerData(row.id, { a: 1 });
      await backdateUser(db, row.id, at(createdAt));
      return row.id;
    };
    const idleGuest = await user('guest', now - 40 * day);
    const activeGuest = await user('guest', now - 40 * day);
    const newGuest = await user('guest', now - day);
    const oldMember = await user('ggl', now - 400 * day);
    const roomId = await rooms.createRoom(idleGuest);
    await rooms.recordMembership(idleGuest, roomId);
    await ageRoomMembership(db, idleGuest, roomId, at(now - 35 * day));
    await rooms.recordMembership(activeGuest, roomId);
    await ageRoomMembership(db, activeGuest, roomId, at(now - 2 * day));
    time = now - 35 * day;
    const session = await rooms.createSession(idleGuest, roomId, 24 * 3600);
    await rooms.insertMessage({
      roomId,
      userId: idleGuest,
      username: 'idle-guest',
      displayUsername: 'idle-guest',
      language: 'en',
      text: 'hello',
    });
    // the sign-in links go with the guest; an unverified email account asked for goes too
    await seedPendingEmailAccount(db, 'idle@example.test', idleGuest);
    expect(await rooms.findSession(session.id)).toBeDefined();

    expect(await deleteIdleGuests(db, at(now - 30 * day))).toBe(1);

    const sorted = (ids: string[]) => [...ids].sort();
    const everyone = [idleGuest, activeGuest, newGuest, oldMember];
    const kept = sorted([activeGuest, newGuest, oldMember]);
    expect(sorted((await users.findByIds(everyone)).map((row) => row.id))).toEqual(kept);
    expect(await rooms.memberIds(roomId, everyone.length)).toEqual([activeGuest]);
    // the clock still stands before the session's end: only its removal hides it
    expect(await rooms.findSession(session.id)).toBeUndefined();
    const linked: string[] = [];
    for (const id of everyone) if ((await links.list(id)).length > 0) linked.push(id);
    expect(sorted(linked)).toEqual(kept);
    expect(await pendingEmailRequesters(db)).toEqual([null]);
    // the room's history keeps the message, no longer linked to the removed guest
    const { messages, rooms: roomRows } = await storedRoomRows(db);
    expect(messages.map(({ user_id, text }) => ({ user_id, text }))).toEqual([
      { user_id: null, text: 'hello' },
    ]);
    expect(roomRows.map(({ created_by }) => ({ created_by }))).toEqual([{ created_by: null }]);
    expect(await deleteIdleGuests(db, at(now - 30 * day))).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roomHistoryResponseSchema } from '@xtalk/protocol';
import { guestLogin, joinRoom, startServer, type TestServer } from '../testing/harness.js';
import { memberLogin } from '../testing/members.js';
import { ageRoomMembership } from '../testing/seed/index.js';

/* Past Rooms on the server: GET/DELETE /api/rooms/history over the memberships POST /xtalk records. */

const SECRET = 'test-secret-that-is-long-enough-to-sign-tokens';

describe('room history', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ AUTH_SECRET: SECRET });
  });
  afterAll(() => server.close());

  const history = async (token: string) => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/rooms/history',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    return roomHistoryResponseSchema.parse(response.json()).rooms;
  };

  it('lists joined rooms, most recently updated first, with added and updated times', async () => {
    const member = await memberLogin(server, SECRET, 'history-1');
    const before = Date.now();
    const first = await joinRoom(server.app, member.token, null);
    const second = await joinRoom(server.app, member.token, null);
    let rooms = await history(member.token);
    expect(rooms.map((room) => room.roomId)).toEqual([second.roomId, first.roomId]);
    for (const room of rooms) {
      expect(room.added).toBeGreaterThanOrEqual(before - 1000);
      expect(room.updated).toBeGreaterThanOrEqual(room.added);
    }
    const addedFirst = rooms[1]!.added;

    // rejoining moves it up and keeps when it was first added
    await new Promise((resolve) => setTimeout(resolve, 10));
    await joinRoom(server.app, member.token, first.roomId);
    rooms = await history(member.token);
    expect(rooms.map((room) => room.roomId)).toEqual([first.roomId, second.roomId]);
    expect(rooms[0]!.added).toBe(addedFirst);
    expect(rooms[0]!.updated).toBeGreaterThan(addedFirst);

    // it is the account's, not the device's: another token of the same user sees the same
    const otherDevice = await memberLogin(server, SECRET, 'history-1');
    expect((await history(otherDevice.token)).map((room) => room.roomId)).toEqual([
      first.roomId,
      second.roomId,
    ]);
  });

  it('returns at most 20 rooms', async () => {
    const member = await memberLogin(server, SECRET, 'history-many');
    const created: string[] = [];
    for (let i = 0; i < 22; i++) created.push((await joinRoom(server.app, member.token, null)).roomId);
    // distinct, known update times so the order is certain
    for (const [i, roomId] of created.entries()) {
      await ageRoomMembership(server, member.user.userId, roomId, new Date(Date.UTC(2025, 0, 1, 0, i)));
    }
    const rooms = await history(member.token);
    expect(rooms).toHaveLength(20);
    expect(rooms.map((room) => room.roomId)).toEqual(created.slice(2).reverse());
  });

  it("clears only the caller's history", async () => {
    const member = await memberLogin(server, SECRET, 'history-clear');
    const other = await memberLogin(server, SECRET, 'history-keep');
    const { roomId } = await joinRoom(server.app, member.token, null);
    await joinRoom(server.app, other.token, roomId);
    const cleared = await server.app.inject({
      method: 'DELETE',
      url: '/api/rooms/history',
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(cleared.statusCode).toBe(204);
    expect(await history(member.token)).toEqual([]);
    expect((await history(other.token)).map((room) => room.roomId)).toEqual([roomId]);
    // the room itself is still there to rejoin
    expect((await joinRoom(server.app, member.token, roomId)).roomId).toBe(roomId);
    expect((await history(member.token)).map((room) => room.roomId)).toEqual([roomId]);
  });

  it('is for signed-in users: guests get 403, no token 401', async () => {
    const guest = await guestLogin(server.app);
    await joinRoom(server.app, guest.token, null);
    for (const method of ['GET', 'DELETE'] as const) {
      const refused = await server.app.inject({
        method,
        url: '/api/rooms/history',
        headers: { authorization: `Bearer ${guest.token}` },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('Login to view room history.');
      expect(refused.json().code).toBe('login_required');
      const anonymous = await server.app.inject({ method, url: '/api/rooms/history' });
      expect(anonymous.statusCode).toBe(401);
    }
  });
});

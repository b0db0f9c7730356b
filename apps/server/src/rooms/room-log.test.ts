import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestLogin, joinRoom, startServer, userIdOf, type TestServer } from '../testing/harness.js';
import { createRoomLog } from './room-log.js';
import { createRoomsRepo } from './rooms-repo.js';
import { dbOf } from '../testing/seed/index.js';

/* A joiner's catch-up in one statement: the same position and window as the two reads it replaces. */
describe('the room log recent window', () => {
  let server: TestServer;
  let now = 1_800_000_000_000;
  const clock = { now: () => now };
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('reads the position and the latest messages, oldest first, as position + listMessages did', async () => {
    const login = await guestLogin(server.app);
    const { roomId } = await joinRoom(server.app, login.token, null);
    const userId = await userIdOf(server, login.user.username);
    const repo = createRoomsRepo(dbOf(server), clock);
    const log = createRoomLog(dbOf(server));
    expect(await log.recentWindow(roomId, 3)).toEqual({
      position: await log.position(roomId),
      messages: [],
    });
    for (const text of ['one', 'two', 'three', 'four']) {
      now += 1000;
      await repo.insertMessage({
        roomId,
        userId,
        username: login.user.username,
        displayUsername: 'Alice',
        language: 'en',
        text,
      });
    }
    await repo.saveTranslation(roomId, now, 'ja', '[ja] four', 'four');
    const window = await log.recentWindow(roomId, 3);
    expect(window.messages.map((message) => message.message)).toEqual(['two', 'three', 'four']);
    expect(window).toEqual({
      position: await log.position(roomId),
      messages: await repo.listMessages(roomId, 3),
    });
    expect(window.position?.offset).toBe(5);
    expect(window.messages.at(-1)?.translations).toEqual({ ja: '[ja] four' });
    expect(await log.recentWindow('NO-SUCH-ROOM', 3)).toEqual({ position: undefined, messages: [] });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestLogin, joinRoom, startServer, userIdOf, type TestServer } from '../testing/harness.js';
import { createRoomLog } from './room-log.js';
import { createRoomsRepo } from './rooms-repo.js';
import { dbOf } from '../testing/seed/index.js';

/* Corrections in the database: one logged change, refusals that store nothing, stale work that cannot land. */
describe('message edits in the store', () => {
  let server: TestServer;
  let now = 1_800_000_000_000;
  const clock = { now: () => now };
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  async function setup() {
    const login = await guestLogin(server.app);
    const { roomId } = await joinRoom(server.app, login.token, null);
    const userId = await userIdOf(server, login.user.username);
    const repo = createRoomsRepo(dbOf(server), clock, { editWindowSeconds: 60 });
    const stored = await repo.insertMessage({
      roomId,
      userId,
      username: login.user.username,
      displayUsername: 'Alice',
      language: 'en',
      text: 'the red book',
    });
    return { repo, roomId, userId, message: stored.message };
  }

  it('stores the new text, voids translations and note, and logs messageEdited at the next offset', async () => {
    const { repo, roomId, userId, message } = await setup();
    await repo.saveTranslation(roomId, message.id, 'ja', '[ja] the red book', 'the red book');
    await repo.saveNote(roomId, message.id, 'a note', 'the red book');
    now += 1000;
    const outcome = await repo.editMessage({ roomId, userId, id: message.id, text: 'the blue book' });
    expect(outcome).toMatchObject({
      ok: true,
      message: { message: 'the blue book', translations: {}, editedAt: now },
      frame: {
        type: 'messageEdited',
        id: message.id,
        message: 'the blue book',
        editedAt: now,
        language: 'en',
      },
    });
    const [after] = await repo.listMessages(roomId, 1);
    expect(after).toMatchObject({ message: 'the blue book', translations: {}, editedAt: now });
    expect(after?.note).toBeUndefined();
    // the stale translation of the old text cannot land; the new one can
    expect(
      await repo.saveTranslation(roomId, message.id, 'ja', '[ja] the red book', 'the red book'),
    ).toBeUndefined();
    expect(await repo.saveNote(roomId, message.id, 'old note', 'the red book')).toBeUndefined();
    const fresh = await repo.saveTranslation(
      roomId,
      message.id,
      'ja',
      '[ja] the blue book',
      'the blue book',
      now,
    );
    expect(fresh).toBeGreaterThan(0);
    const log = createRoomLog(dbOf(server));
    const frames = await log.readSince(roomId, 0, 100, 100);
    expect(frames.map((f) => f.type)).toEqual([
      'message',
      'translationComplete',
      'noteComplete',
      'messageEdited',
      'translationComplete',
    ]);
    expect(frames.map((f) => f.offset)).toEqual([1, 2, 3, 4, 5]);
    // a client that resumes reads which text the logged translation is of
    expect(frames.at(-1)).toMatchObject({ type: 'translationComplete', revision: now });
    // the same text again is no change at all
    expect(await repo.editMessage({ roomId, userId, id: message.id, text: 'the blue book' })).toMatchObject({
      ok: true,
      unchanged: true,
    });
    expect((await log.position(roomId))?.offset).toBe(5);
  });

  it('refuses someone else, an unknown id and a closed window, changing nothing', async () => {
    const { repo, roomId, userId, message } = await setup();
    const other = await guestLogin(server.app);
    const position = (await createRoomLog(dbOf(server)).position(roomId))?.offset;
    expect(
      await repo.editMessage({
        roomId,
        userId: await userIdOf(server, other.user.username),
        id: message.id,
        text: 'mine now',
      }),
    ).toMatchObject({ ok: false, code: 'edit_forbidden' });
    expect(await repo.editMessage({ roomId, userId, id: message.id + 1, text: 'x' })).toMatchObject({
      ok: false,
      code: 'message_not_found',
    });
    expect(await repo.editMessage({ roomId: 'ZZZZZZZ', userId, id: message.id, text: 'x' })).toMatchObject({
      ok: false,
      code: 'message_not_found',
    });
    now += 61_000;
    expect(await repo.editMessage({ roomId, userId, id: message.id, text: 'late' })).toMatchObject({
      ok: false,
      code: 'edit_window_closed',
    });
    const [after] = await repo.listMessages(roomId, 1);
    expect(after).toMatchObject({ message: 'the red book' });
    expect(after?.editedAt).toBeUndefined();
    expect((await createRoomLog(dbOf(server)).position(roomId))?.offset).toBe(position);
  });
});

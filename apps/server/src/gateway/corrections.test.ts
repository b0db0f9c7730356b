import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  ErrorFrame,
  MessageEditedFrame,
  MessageFrame,
  NoteCompleteFrame,
  ServerFrame,
  SystemFrame,
  TranslationCompleteFrame,
} from '@xtalk/protocol';
import { PROTOCOL_VERSION } from '@xtalk/protocol';
import type { Usage } from '../translation/index.js';
import { fixture } from '../voice/testing/clips.js';
import {
  guestLogin,
  joinRoom,
  roomBarrier,
  startServer,
  TestClient,
  type TestServer,
} from '../testing/harness.js';
import { dbOf } from '../testing/seed/index.js';

/*
 * Corrections through the real server: editMessage over real sockets, the fake engine, the
 * room log in PGlite, a meter that records what is charged.
 */

const V3 = { protocolVersion: 3 };
const charges: Usage[] = [];

describe('corrections', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(
      { AI_PROVIDER: 'fake', FAKE_AI_CHUNK_DELAY_MS: '20' },
      {
        meter: {
          async charge(usage) {
            charges.push(usage);
          },
        },
      },
    );
  });
  afterAll(() => server.close());
  beforeEach(() => {
    charges.length = 0;
  });

  async function room() {
    const alice = await guestLogin(server.app);
    const bob = await guestLogin(server.app);
    const carol = await guestLogin(server.app);
    const { roomId } = await joinRoom(server.app, alice.token, null);
    const author = await TestClient.join(server, alice, roomId, 'en', V3);
    const listener = await TestClient.join(server, bob, roomId, 'ja', V3);
    // a version-1 client (no protocolVersion): it must never get a frame it cannot parse
    const old = await TestClient.join(server, carol, roomId, 'ja');
    return { alice, bob, carol, roomId, author, listener, old };
  }

  const isFor = (id: number) => (frame: ServerFrame) =>
    (frame.type === 'translationComplete' ||
      frame.type === 'translationChunk' ||
      frame.type === 'noteComplete') &&
    frame.originalTimestamp === id;

  async function stored(roomId: string, id: number) {
    const { rows } = await dbOf(server).query<{ text: string; translations: unknown; note: string | null }>(
      'select text, translations, note, edited_at from messages where room_id = $1 and id = $2',
      [roomId, id],
    );
    return rows[0];
  }

  it('redoes translations, hint and audio for the new text, stores it, and charges it as new work', async () => {
    const { roomId, author, listener, old } = await room();
    const text = 'it is raining cats and dogs, an idiom';
    author.send({ type: 'chat', language: 'en', message: text, room: roomId });
    const message = await author.next<MessageFrame>((f) => f.type === 'message' && f.message === text);
    await listener.next<NoteCompleteFrame>(
      (f) => f.type === 'noteComplete' && f.originalTimestamp === message.id,
    );
    await expect.poll(() => listener.binary.length, { timeout: 5000 }).toBe(1);
    charges.length = 0;

    const fixed = 'it is raining frogs and dogs, an idiom';
    author.send({ type: 'editMessage', id: message.id, message: fixed });
    for (const client of [author, listener]) {
      const edited = await client.next<MessageEditedFrame>((f) => f.type === 'messageEdited');
      expect(edited).toMatchObject({ id: message.id, message: fixed, editedAt: expect.any(Number) });
      expect(edited.offset).toBeGreaterThan(message.offset!);
      const complete = await client.next<TranslationCompleteFrame>(
        (f) =>
          f.type === 'translationComplete' &&
          f.originalTimestamp === message.id &&
          f.fullText.includes('frogs'),
      );
      expect(complete.fullText).toBe(`[ja] ${fixed}`);
      // named by the revision it translates, so a node and a client can drop a late one of the old text
      expect(complete.revision).toBe(edited.editedAt);
      expect(client.frames.indexOf(complete)).toBeGreaterThan(client.frames.indexOf(edited));
      // every piece of the new translation came after the edit, and it is complete in order
      const after = client.frames.slice(client.frames.indexOf(edited));
      const chunks = after.filter((f) => f.type === 'translationChunk' && f.originalTimestamp === message.id);
      expect(chunks.map((f) => (f as { chunk: string }).chunk).join('')).toBe(complete.fullText);
      // each names the revision it translates, so a node can drop a late piece of the old text
      for (const each of chunks) expect(each).toMatchObject({ revision: edited.editedAt });
      const note = await client.next<NoteCompleteFrame>(
        (f) =>
          f.type === 'noteComplete' &&
          f.originalTimestamp === message.id &&
          client.frames.indexOf(f) > client.frames.indexOf(edited),
      );
      expect(note.note).toMatch(/idiom/);
    }
    // the spoken translation is made again for the Japanese listener
    await expect.poll(() => listener.binary.length, { timeout: 5000 }).toBe(2);

    // the version-1 client got the correction as a message frame with the same id, never messageEdited
    const resent = await old.next<MessageFrame>(
      (f) => f.type === 'message' && f.id === message.id && f.message === fixed,
    );
    expect(resent.translations).toEqual({});
    await old.next((f) => f.type === 'translationComplete' && f.fullText === `[ja] ${fixed}`);
    expect(old.frames.some((f) => (f.type as string) === 'messageEdited')).toBe(false);

    // stored: the final text, its translation and hint
    const row = await stored(roomId, message.id);
    expect(row).toMatchObject({ text: fixed, translations: { ja: `[ja] ${fixed}` } });
    expect(row?.note).toMatch(/idiom/);
    // charged as new work through the meter: translation, hint and speech of the new text
    expect(charges.map((c) => c.task).sort()).toEqual(['note', 'speech', 'translation']);
    expect(charges.every((c) => c.messageId === message.id && c.roomId === roomId)).toBe(true);
    expect(charges.find((c) => c.task === 'translation')?.characters).toBe(fixed.length);

    // a late joiner's window, and a resume from before the edit, both end with the final text
    const late = await TestClient.join(server, await guestLogin(server.app), roomId, 'ja', V3);
    expect(late.messages().find((f) => f.id === message.id)).toMatchObject({
      message: fixed,
      editedAt: expect.any(Number),
      translations: { ja: `[ja] ${fixed}` },
    });
  });

  it('replays the edit to a client that resumes from before it', async () => {
    const { bob, roomId, author, listener } = await room();
    author.send({ type: 'chat', language: 'en', message: 'see you at five', room: roomId });
    const message = await listener.next<MessageFrame>((f) => f.type === 'message');
    await listener.next((f) => f.type === 'translationComplete' && f.originalTimestamp === message.id);
    const ready = listener.frames.find((f) => f.type === 'system' && f.message === 'READY') as SystemFrame;
    listener.close();
    await listener.closed();

    author.send({ type: 'editMessage', id: message.id, message: 'see you at six' });
    await author.next((f) => f.type === 'translationComplete' && f.fullText === '[ja] see you at six');
    const back = await TestClient.join(server, bob, roomId, 'ja', {
      ...V3,
      resume: { epoch: ready.epoch!, offset: message.offset! },
    });
    const types = back.frames.map((f) => f.type);
    expect(types).not.toContain('message'); // it had the message: exactly what it missed
    const edited = back.frames.find((f) => f.type === 'messageEdited') as MessageEditedFrame;
    expect(edited).toMatchObject({ id: message.id, message: 'see you at six' });
    const lastJa = back.frames.filter(
      (f): f is TranslationCompleteFrame =>
        f.type === 'translationComplete' && f.originalTimestamp === message.id,
    );
    expect(lastJa.at(-1)?.fullText).toBe('[ja] see you at six');
    expect(back.frames.indexOf(lastJa.at(-1)!)).toBeGreaterThan(back.frames.indexOf(edited));
  });

  it('supersedes a translation still running: nothing of the old text lands after the edit', async () => {
    const { roomId, author, listener } = await room();
    const long = Array.from({ length: 30 }, (_, i) => `stale${i}`).join(' ');
    author.send({ type: 'chat', language: 'en', message: long, room: roomId });
    const message = await author.next<MessageFrame>((f) => f.type === 'message' && f.message === long);
    // the old translation is streaming (30 words, 20 ms apart) when the correction arrives
    await listener.next((f) => f.type === 'translationChunk' && f.originalTimestamp === message.id);
    author.send({ type: 'editMessage', id: message.id, message: 'fresh words' });
    const edited = await listener.next<MessageEditedFrame>((f) => f.type === 'messageEdited');
    await listener.next((f) => f.type === 'translationComplete' && f.fullText === '[ja] fresh words');
    // the following frame: a message as long as the old one, sent now, is translated after the old work
    // would have finished had it not been stopped
    const follow = Array.from({ length: 32 }, (_, i) => `follow${i}`).join(' ');
    author.send({ type: 'chat', language: 'en', message: follow, room: roomId });
    await listener.next((f) => f.type === 'translationComplete' && f.fullText === `[ja] ${follow}`, 10_000);
    const afterEdit = listener.frames.slice(listener.frames.indexOf(edited) + 1).filter(isFor(message.id));
    expect(afterEdit.length).toBeGreaterThan(0);
    expect(JSON.stringify(afterEdit)).not.toMatch(/stale/);
    const row = await stored(roomId, message.id);
    expect(row).toMatchObject({ text: 'fresh words', translations: { ja: '[ja] fresh words' } });
  });

  it('refuses others, unknown ids and bad text with a clear error, storing nothing', async () => {
    const { roomId, author, listener } = await room();
    author.send({ type: 'chat', language: 'en', message: 'mine to fix', room: roomId });
    const message = await listener.next<MessageFrame>(
      (f) => f.type === 'message' && f.message === 'mine to fix',
    );
    await listener.next((f) => f.type === 'translationComplete' && f.originalTimestamp === message.id);

    const refused = (client: TestClient) => client.nextNew<ErrorFrame>((f) => f.type === 'error');
    let error = refused(listener);
    listener.send({ type: 'editMessage', id: message.id, message: 'hijacked' });
    expect(await error).toMatchObject({ code: 'edit_forbidden', message: expect.stringMatching(/author/) });
    error = refused(author);
    author.send({ type: 'editMessage', id: 12345, message: 'nothing there' });
    expect((await error).code).toBe('message_not_found');
    error = refused(author);
    author.send({ type: 'editMessage', id: message.id, message: '   ' });
    expect((await error).code).toBe('message_invalid');

    const [marker] = await roomBarrier(author, roomId, [listener]);
    expect(listener.framesBefore(marker!).some((f) => f.type === 'messageEdited')).toBe(false);
    expect(await stored(roomId, message.id)).toMatchObject({
      text: 'mine to fix',
      translations: { ja: '[ja] mine to fix' },
    });
  });

  it('corrects the transcript of a voice message', async () => {
    const { roomId, author, listener } = await room();
    author.ws.send(fixture('hello-en.opus'));
    const message = await listener.next<MessageFrame>((f) => f.type === 'message');
    await listener.next((f) => f.type === 'translationComplete' && f.originalTimestamp === message.id);
    author.send({ type: 'editMessage', id: message.id, message: 'Hello everyone, this was spoken.' });
    await listener.next((f) => f.type === 'messageEdited' && f.id === message.id);
    await listener.next(
      (f) => f.type === 'translationComplete' && f.fullText === '[ja] Hello everyone, this was spoken.',
    );
    expect((await stored(roomId, message.id))?.text).toBe('Hello everyone, this was spoken.');
  });
});

describe('corrections after the edit window', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ AI_PROVIDER: 'fake', EDIT_WINDOW_SECONDS: '0' });
  });
  afterAll(() => server.close());

  it('are refused with edit_window_closed, and READY says the window', async () => {
    const alice = await guestLogin(server.app);
    const { roomId } = await joinRoom(server.app, alice.token, null);
    const author = await TestClient.join(server, alice, roomId, 'en', V3);
    const ready = author.frames.find((f) => f.type === 'system' && f.message === 'READY') as SystemFrame;
    expect(ready).toMatchObject({
      // the server's own version, whatever the client's
      protocolVersion: PROTOCOL_VERSION,
      editWindowSeconds: 0,
      languages: ['en', 'ja'],
    });
    author.send({ type: 'chat', language: 'en', message: 'too late', room: roomId });
    const message = await author.next<MessageFrame>((f) => f.type === 'message');
    await new Promise((resolve) => setTimeout(resolve, 5)); // the window is 0 s: any later moment is past it
    author.send({ type: 'editMessage', id: message.id, message: 'fixed' });
    expect(await author.nextNew<ErrorFrame>((f) => f.type === 'error')).toMatchObject({
      code: 'edit_window_closed',
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  MessageFrame,
  NoteCompleteFrame,
  TranslationChunkFrame,
  TranslationCompleteFrame,
} from '@xtalk/protocol';
import { readWavInfo } from '../audio/index.js';
import {
  guestLogin,
  joinRoom,
  roomBarrier,
  startServer,
  TestClient,
  type TestServer,
} from '../testing/harness.js';

/* The translation pipeline wired into the real server: frames over real sockets, storage, replay. */
describe('translation in a room', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ AI_PROVIDER: 'fake', FAKE_AI_CHUNK_DELAY_MS: '5' });
  });
  afterAll(() => server.close());

  it('streams chunks to everyone, completes, stores, hints, and speaks to the other language only', async () => {
    const alice = await guestLogin(server.app);
    const bob = await guestLogin(server.app);
    const carol = await guestLogin(server.app);
    const { roomId } = await joinRoom(server.app, alice.token, null);
    const a = await TestClient.join(server, alice, roomId, 'en');
    const b = await TestClient.join(server, bob, roomId, 'ja');
    const c = await TestClient.join(server, carol, roomId, 'en');

    const text = 'it is raining cats and dogs, an idiom';
    a.send({ type: 'chat', language: 'en', message: text, room: roomId });
    const message = await a.next<MessageFrame>((frame) => frame.type === 'message' && frame.message === text);
    const isMine = (frame: { originalTimestamp?: number }) => frame.originalTimestamp === message.id;

    for (const client of [a, b, c]) {
      const complete = await client.next<TranslationCompleteFrame>(
        (frame) => frame.type === 'translationComplete' && isMine(frame),
      );
      expect(complete).toEqual({
        type: 'translationComplete',
        originalTimestamp: message.id,
        targetLanguage: 'ja',
        fullText: `[ja] ${text}`,
        // stored before it is sent, at the room's next offset after the message
        offset: expect.any(Number),
        // the message's first text
        revision: 0,
      });
      const chunks = client.frames.filter(
        (frame): frame is TranslationChunkFrame => frame.type === 'translationChunk' && isMine(frame),
      );
      expect(chunks.length).toBeGreaterThan(3);
      expect(chunks.map((chunk) => chunk.chunk).join('')).toBe(complete.fullText);
      // the message itself came before any of its chunks
      expect(client.frames.indexOf(chunks[0]!)).toBeGreaterThan(
        client.frames.findIndex((frame) => frame.type === 'message' && frame.id === message.id),
      );
      const note = await client.next<NoteCompleteFrame>(
        (frame) => frame.type === 'noteComplete' && isMine(frame),
      );
      expect(note.note).toMatch(/idiom/);
    }

    // spoken translation: Japanese listener only (never the English author or other English listeners)
    await expect.poll(() => b.binary.length, { timeout: 5000 }).toBe(1);
    expect(readWavInfo(b.binary[0]!)?.sampleRate).toBeGreaterThan(0);
    // audio fans out with the room's frames, in order: none before the next message means none at all
    await roomBarrier(a, roomId, [a, c]);
    expect(a.binary).toHaveLength(0);
    expect(c.binary).toHaveLength(0);

    // a late joiner's replay carries the stored translation and hint
    const late = await TestClient.join(server, carol, roomId, 'ja');
    const replayed = late
      .messages()
      .find((frame) => (frame as MessageFrame).id === message.id) as MessageFrame;
    expect(replayed.translations).toEqual({ ja: `[ja] ${text}` });
    expect(replayed.note).toMatch(/idiom/);
    for (const client of [a, b, c, late]) client.close();
  });

  it('translates Japanese into English and keeps the room chatting while a translation is slow', async () => {
    const alice = await guestLogin(server.app);
    const bob = await guestLogin(server.app);
    const { roomId } = await joinRoom(server.app, alice.token, null);
    const a = await TestClient.join(server, alice, roomId, 'en');
    const b = await TestClient.join(server, bob, roomId, 'ja');
    b.send({ type: 'chat', language: 'ja', message: 'ゆっくり !slow', room: roomId });
    b.send({ type: 'chat', language: 'ja', message: 'こんにちは', room: roomId });
    // both originals arrive at once, long before the slow translation could finish
    await a.next((frame) => frame.type === 'message' && frame.message === 'ゆっくり !slow', 1000);
    await a.next((frame) => frame.type === 'message' && frame.message === 'こんにちは', 1000);
    const done = await a.next<TranslationCompleteFrame>(
      (frame) => frame.type === 'translationComplete' && frame.fullText === '[en] こんにちは',
    );
    expect(done.targetLanguage).toBe('en');
    a.close();
    b.close();
  });
});

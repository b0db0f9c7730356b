import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PROTOCOL_VERSION,
  type MessageFrame,
  type ServerFrame,
  type SystemFrame,
  type TranslationFailedFrame,
} from '@xtalk/protocol';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';

/*
 * A translation that fails for good ends with translationFailed, and listeners drop the chunks they hold
 * (decision 0126). It is logged in the room now (decision 0135): a listener who was away when it came is told on resume,
 * where before it kept the chunks it had seen for good. Real server, fake engine (`!fail` fails the
 * translation after its first chunk, every attempt).
 */

let server: TestServer;

const isReady = (frame: ServerFrame): frame is SystemFrame =>
  frame.type === 'system' && frame.message === 'READY';
const isFailed = (frame: ServerFrame): frame is TranslationFailedFrame => frame.type === 'translationFailed';

beforeAll(async () => {
  server = await startServer({ LANGUAGES: 'en,ja', FAKE_AI_CHUNK_DELAY_MS: '0' });
});
afterAll(async () => {
  await server.close();
});

describe('a failed translation in the room log', () => {
  it('is replayed, with its offset, to a listener who resumes, and to no client older than version 4', async () => {
    const [author, watcher, away, older] = await Promise.all(
      Array.from({ length: 4 }, () => guestLogin(server.app)),
    );
    const { roomId } = await joinRoom(server.app, author!.token, null);
    const hello = { protocolVersion: PROTOCOL_VERSION };
    const a = await TestClient.join(server, author!, roomId, 'en', hello);
    const w = await TestClient.join(server, watcher!, roomId, 'ja', hello);
    const gone = await TestClient.join(server, away!, roomId, 'ja', hello);
    const goneOld = await TestClient.join(server, older!, roomId, 'ja', { protocolVersion: 3 });
    const positions = [gone, goneOld].map((client) => {
      const ready = client.frames.find(isReady)!;
      return { epoch: ready.epoch!, offset: ready.offset! };
    });
    gone.close();
    goneOld.close();
    await Promise.all([gone.closed(), goneOld.closed()]);

    a.send({ type: 'chat', language: 'en', message: 'this one will !fail', room: roomId });
    const live = await w.next<TranslationFailedFrame>(isFailed);
    const message = await w.next<MessageFrame>((frame) => frame.type === 'message');
    expect(live).toMatchObject({ originalTimestamp: message.id, targetLanguage: 'ja' });
    expect(live.offset).toBeGreaterThan(message.offset!);

    const back = await TestClient.join(server, away!, roomId, 'ja', { ...hello, resume: positions[0] });
    const replayed = back.framesBefore(back.frames.find(isReady)!);
    expect(replayed.filter((frame) => frame.type === 'message')).toHaveLength(1);
    expect(replayed.filter(isFailed)).toEqual([live]);

    const backOld = await TestClient.join(server, older!, roomId, 'ja', {
      protocolVersion: 3,
      resume: positions[1],
    });
    const replayedOld = backOld.framesBefore(backOld.frames.find(isReady)!);
    expect(replayedOld.filter((frame) => frame.type === 'message')).toHaveLength(1);
    expect(replayedOld.some(isFailed)).toBe(false);
    for (const client of [a, w, back, backOld]) client.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PROTOCOL_VERSION,
  RETRANSLATE_PROTOCOL_VERSION,
  type ErrorFrame,
  type MessageFrame,
  type ServerFrame,
  type TranslationCompleteFrame,
  type TranslationFailedFrame,
} from '@xtalk/protocol';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../ai/testing/fake-openai-server.js';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';

/*
 * "Try again" (retranslate, protocol 7): a translation that failed for good is kept with the message
 * (history marks it), and its author alone can have it made again once the engine is back. Real server,
 * real database, the fake OpenAI-compatible server over HTTP failing with 500 and then recovering.
 */

let server: TestServer;
let engine: FakeOpenAiServer;
let failing = true;

const isFailed = (frame: ServerFrame): frame is TranslationFailedFrame => frame.type === 'translationFailed';
const isComplete = (frame: ServerFrame): frame is TranslationCompleteFrame =>
  frame.type === 'translationComplete';
const isError = (frame: ServerFrame): frame is ErrorFrame =>
  frame.type === 'error' && frame.code !== 'notice';

beforeAll(async () => {
  engine = await startFakeOpenAiServer();
  engine.onChat = () => (failing ? { kind: 'status', status: 500, message: 'engine down' } : undefined);
  server = await startServer({
    LANGUAGES: 'en,ja',
    AI_PROVIDER: 'openai',
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: engine.baseURL,
  });
});
afterAll(async () => {
  await server.close();
  await engine.close();
});

describe('retranslate', () => {
  it('keeps the failure in history, refuses bad asks, and redoes the failed language for its author', async () => {
    const [author, other, older] = await Promise.all(Array.from({ length: 3 }, () => guestLogin(server.app)));
    const { roomId } = await joinRoom(server.app, author!.token, null);
    const hello = { protocolVersion: PROTOCOL_VERSION };
    const a = await TestClient.join(server, author!, roomId, 'en', hello);
    const o = await TestClient.join(server, other!, roomId, 'ja', hello);

    a.send({ type: 'chat', language: 'en', message: 'hello there', room: roomId });
    const message = await o.next<MessageFrame>((frame) => frame.type === 'message');
    // sent although no chunk was streamed before the failure
    expect(await o.next(isFailed, 20_000)).toMatchObject({
      originalTimestamp: message.id,
      targetLanguage: 'ja',
    });

    // history carries the failure to a client joining afterwards; an older one gets the message without it
    const late = await TestClient.join(server, older!, roomId, 'ja', hello);
    const stored = late.frames.find((f): f is MessageFrame => f.type === 'message' && f.id === message.id);
    expect(stored?.failedTranslations).toEqual(['ja']);
    const old = await TestClient.join(server, older!, roomId, 'ja', {
      protocolVersion: RETRANSLATE_PROTOCOL_VERSION - 1,
    });
    const plain = old.frames.find((f): f is MessageFrame => f.type === 'message' && f.id === message.id);
    expect(plain).toMatchObject({ id: message.id, message: 'hello there' });
    expect(plain).not.toHaveProperty('failedTranslations');

    // bad asks: someone else's message, an unknown id, each answered with an error and nothing redone
    o.send({ type: 'retranslate', id: message.id });
    expect(await o.nextNew(isError)).toMatchObject({ code: 'edit_forbidden' });
    a.send({ type: 'retranslate', id: 12345 });
    expect(await a.nextNew(isError)).toMatchObject({ code: 'message_not_found' });

    failing = false;
    a.send({ type: 'retranslate', id: message.id });
    const done = await o.nextNew<TranslationCompleteFrame>(isComplete, 10_000);
    expect(done).toMatchObject({ originalTimestamp: message.id, targetLanguage: 'ja' });

    // no longer failed: asking again is refused
    a.send({ type: 'retranslate', id: message.id });
    expect(await a.nextNew(isError)).toMatchObject({ code: 'not_failed' });
    const again = await TestClient.join(server, older!, roomId, 'ja', { protocolVersion: 6 });
    const now = again.frames.find((f): f is MessageFrame => f.type === 'message' && f.id === message.id);
    expect(now?.failedTranslations).toBeUndefined();
    expect(now?.translations.ja).toBe(done.fullText);
    for (const client of [a, o, late, old, again]) client.close();
  });
});

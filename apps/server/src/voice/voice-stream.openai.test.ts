import type {
  CaptionPartialFrame,
  MessageFrame,
  TranslationChunkFrame,
  TranslationCompleteFrame,
} from '@xtalk/protocol';
import { PROTOCOL_VERSION } from '@xtalk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../ai/testing/fake-openai-server.js';
import {
  speakerAndListener,
  roomBarrier,
  startServer,
  type TestClient,
  type TestServer,
} from '../testing/harness.js';
import { fixture, pagesOf } from './testing/clips.js';

/*
 * Streaming voice through the real server with AI_PROVIDER=openai, against an in-test fake
 * OpenAI-compatible server: the Realtime transcription WebSocket (real event shapes, one word per 0.3 s
 * of audio), SSE chat completions for translation and hints, audio/transcriptions and audio/speech.
 * Two real sockets in a room; the speaker streams the Ogg pages of a real clip.
 */

const v3 = { protocolVersion: PROTOCOL_VERSION };
const SCRIPT = 'Good morning everyone. The weather is lovely today. Let us begin.';

let fake: FakeOpenAiServer;
let server: TestServer;
beforeAll(async () => {
  fake = await startFakeOpenAiServer();
  fake.realtime.transcript = SCRIPT;
  fake.transcription = { text: SCRIPT, language: 'english' };
  server = await startServer({
    AI_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.baseURL,
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

/** A room with a speaker and a Japanese listener; `realtime`: whether the fake offers the Realtime API. */
async function room(realtime: boolean) {
  fake.realtime.enabled = realtime;
  return speakerAndListener(server, {}, v3);
}

/** The pages as a recording browser sends them: one after another, not all at once. */
async function sendPaced(client: TestClient, pages: Uint8Array[]): Promise<void> {
  for (const page of pages) {
    client.ws.send(page);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Captions before `until`: each extends the one before it and the script begins with the last. */
function captionsBefore(client: TestClient, until: MessageFrame, clipId: string): CaptionPartialFrame[] {
  const captions = client
    .framesBefore(until)
    .filter((frame): frame is CaptionPartialFrame => frame.type === 'captionPartial');
  expect(captions.length).toBeGreaterThan(0);
  for (const caption of captions) expect(caption).toMatchObject({ clipId, language: 'en' });
  for (let i = 1; i < captions.length; i += 1)
    expect(captions[i]!.text.startsWith(captions[i - 1]!.text)).toBe(true);
  expect(SCRIPT.startsWith(captions.at(-1)!.text)).toBe(true);
  return captions;
}

describe('streaming voice in a room, openai engine', () => {
  it('Realtime transcription: ordered captions, sentences translated before the end, one final message', async () => {
    const { alice, roomId, speaker, listener } = await room(true);
    speaker.send({ type: 'voiceStart', clipId: 'rt-1', language: 'en', room: roomId });
    for (const page of pagesOf(fixture('hello-en.opus'))) speaker.ws.send(page);
    // still speaking: the first two sentences are committed by the Realtime session and translated
    await listener.next<TranslationChunkFrame>(
      (frame) =>
        frame.type === 'translationChunk' && frame.clipId === 'rt-1' && frame.chunk.includes('weather'),
    );
    expect(listener.messages()).toEqual([]);
    speaker.send({ type: 'voiceEnd', clipId: 'rt-1' });

    const message = await listener.next<MessageFrame>((frame) => frame.type === 'message');
    expect(message).toMatchObject({ message: SCRIPT, clipId: 'rt-1', username: alice.user.username });
    captionsBefore(listener, message, 'rt-1');
    const complete = await listener.next<TranslationCompleteFrame>(
      (frame) => frame.type === 'translationComplete' && frame.originalTimestamp === message.id,
    );
    expect(complete.fullText).toBe(
      'ja: Good morning everyone.ja: The weather is lovely today.ja: Let us begin.',
    );
    // its translation is the clip's sentences translated while it ran, then the tail (if any was left)
    const pieces = listener.frames.filter(
      (frame): frame is TranslationChunkFrame =>
        frame.type === 'translationChunk' &&
        (frame.clipId === 'rt-1' || frame.originalTimestamp === message.id),
    );
    expect(pieces.map((frame) => frame.chunk).join('')).toBe(complete.fullText);
    // the session really was a Realtime one: no whole-clip transcription
    expect(fake.realtime.sessions).toBe(1);
    expect(fake.requests.filter((r) => r.path === '/v1/audio/transcriptions')).toEqual([]);
    // posted once: the following frame (a barrier message) finds no second one
    const [marker] = await roomBarrier(speaker, roomId, [listener]);
    expect(listener.framesBefore(marker!).filter((frame) => frame.type === 'message')).toEqual([message]);
    speaker.close();
    listener.close();
  });

  it('a server without the Realtime API: captions come from re-transcription, the clip is never held up', async () => {
    const { roomId, speaker, listener } = await room(false);
    speaker.send({ type: 'voiceStart', clipId: 'rs-1', language: 'en', room: roomId });
    await sendPaced(speaker, pagesOf(fixture('hello-en.opus')));
    // still speaking: a caption from audio/transcriptions of the clip so far
    await listener.next<CaptionPartialFrame>((frame) => frame.type === 'captionPartial' && frame.text !== '');
    speaker.send({ type: 'voiceEnd', clipId: 'rs-1' });
    const message = await listener.next<MessageFrame>((frame) => frame.type === 'message');
    expect(message).toMatchObject({ message: SCRIPT, clipId: 'rs-1' });
    captionsBefore(listener, message, 'rs-1');
    const complete = await listener.next<TranslationCompleteFrame>(
      (frame) => frame.type === 'translationComplete' && frame.originalTimestamp === message.id,
    );
    expect(complete.fullText).toContain('The weather is lovely today.');
    expect(fake.realtime.sessions).toBe(1); // the one of the first test: this one was refused
    expect(fake.requests.some((r) => r.path === '/v1/audio/transcriptions')).toBe(true); // re-transcription
    speaker.close();
    listener.close();
  });
});

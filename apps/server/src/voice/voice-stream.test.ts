import type {
  CaptionPartialFrame,
  ErrorFrame,
  MessageFrame,
  TranslationChunkFrame,
  TranslationCompleteFrame,
} from '@xtalk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  guestLogin,
  speakerAndListener,
  roomBarrier,
  startServer,
  TestClient,
  type TestServer,
} from '../testing/harness.js';
import { PROTOCOL_VERSION } from '@xtalk/protocol';
import { fixture, pagesOf, withTranscript } from './testing/clips.js';

/*
 * Streaming voice through the real server (protocol 3): voiceStart, Ogg pages as binary frames, voiceEnd,
 * over real sockets, with the fake provider's scripted deltas (one word per 0.3 s of audio, 20 ms late).
 */

const v3 = { protocolVersion: PROTOCOL_VERSION };
const SCRIPT = 'Good morning everyone. The weather is lovely today. Let us begin.';

describe('streaming voice in a room', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ AI_PROVIDER: 'fake', FAKE_AI_DELTA_MS: '20' });
  });
  afterAll(() => server.close());

  async function room() {
    const { alice, roomId, speaker, listener } = await speakerAndListener(server, {}, v3);
    // a client of protocol 2 in the same room: it cannot parse captions, so it must not be sent them
    const older = await TestClient.join(server, await guestLogin(server.app), roomId, 'ja', {
      protocolVersion: 2,
    });
    return { alice, roomId, speaker, listener, older };
  }

  const clip = () => pagesOf(withTranscript(fixture('hello-en.opus'), 'en', SCRIPT));

  it('captions grow in order, committed sentences are translated before the end, the message comes once', async () => {
    const { alice, roomId, speaker, listener, older } = await room();
    speaker.send({ type: 'voiceStart', clipId: 'clip-a', language: 'en', room: roomId });
    for (const page of clip()) speaker.ws.send(page);
    // still speaking (no voiceEnd yet): the first sentences are already translated for the listener
    const early = await listener.next<TranslationChunkFrame>(
      (frame) => frame.type === 'translationChunk' && frame.clipId === 'clip-a',
    );
    expect(early.originalTimestamp).toBe(0);
    await listener.next<TranslationChunkFrame>(
      (frame) =>
        frame.type === 'translationChunk' && frame.clipId === 'clip-a' && frame.chunk.includes('weather'),
    );
    expect(listener.messages()).toHaveLength(0);
    speaker.send({ type: 'voiceEnd', clipId: 'clip-a' });

    const message = await listener.next<MessageFrame>((frame) => frame.type === 'message');
    expect(message).toMatchObject({
      message: SCRIPT,
      language: 'en',
      clipId: 'clip-a',
      username: alice.user.username,
    });
    const complete = await listener.next<TranslationCompleteFrame>(
      (frame) => frame.type === 'translationComplete' && frame.originalTimestamp === message.id,
    );
    expect(complete.fullText).toBe(
      '[ja] Good morning everyone.[ja] The weather is lovely today.[ja] Let us begin.',
    );
    // only the tail was translated after the end
    const tail = listener.frames.filter(
      (frame): frame is TranslationChunkFrame =>
        frame.type === 'translationChunk' && frame.originalTimestamp === message.id,
    );
    expect(tail.map((frame) => frame.chunk).join('')).toBe('[ja] Let us begin.');

    // the protocol-2 client got the message and its whole translation, and nothing of the clip before it
    await older.next(
      (frame) => frame.type === 'translationComplete' && frame.originalTimestamp === message.id,
    );
    expect(older.frames.filter((frame) => frame.type === 'captionPartial')).toEqual([]);
    expect(
      older.frames.filter((frame) => frame.type === 'translationChunk' && frame.originalTimestamp === 0),
    ).toEqual([]);
    expect(older.messages()).toEqual([expect.objectContaining({ message: SCRIPT })]);

    // captions: before the message, each one extends the last, at most a few a second
    const index = listener.frames.indexOf(message);
    const captions = listener.frames
      .slice(0, index)
      .filter((frame): frame is CaptionPartialFrame => frame.type === 'captionPartial');
    expect(captions.length).toBeGreaterThan(0);
    expect(captions[0]).toMatchObject({ clipId: 'clip-a', username: alice.user.username, language: 'en' });
    for (let i = 1; i < captions.length; i += 1)
      expect(captions[i]!.text.startsWith(captions[i - 1]!.text)).toBe(true);
    expect(SCRIPT.startsWith(captions.at(-1)!.text)).toBe(true);

    // stored once, with its translation: a late joiner's replay has it
    const late = await TestClient.join(server, alice, roomId, 'en', v3);
    expect(late.messages()).toEqual([
      expect.objectContaining({
        message: SCRIPT,
        clientId: 'clip-a',
        translations: { ja: complete.fullText },
      }),
    ]);
    // the same clip streamed again (a resend after a drop) is answered with the stored message
    speaker.send({ type: 'voiceStart', clipId: 'clip-a', language: 'en', room: roomId });
    for (const page of clip()) speaker.ws.send(page);
    speaker.send({ type: 'voiceEnd', clipId: 'clip-a' });
    const again = await speaker.nextNew<MessageFrame>((frame) => frame.type === 'message');
    expect(again.id).toBe(message.id);
    for (const client of [speaker, listener, late]) client.close();
  });

  it('a lost piece and a piece out of order are refused by name; nothing is posted; the socket stays up', async () => {
    const { roomId, speaker, listener } = await room();
    const pages = clip();
    const cases: [string, Uint8Array[], RegExp][] = [
      ['lost', [pages[0]!, pages[1]!, pages[3]!], /a piece was lost: expected Ogg page 2, got page 3/],
      ['out of order', [pages[0]!, pages[1]!, pages[2]!, pages[1]!], /out of order: Ogg page 1 after page 2/],
      ['not whole pages', [pages[0]!, pages[1]!.subarray(0, 20)], /truncated/],
    ];
    for (const [label, pieces, reason] of cases) {
      const clipId = `bad-${label.replace(/ /g, '-')}`;
      const error = speaker.nextNew<ErrorFrame>((frame) => frame.type === 'error');
      speaker.send({ type: 'voiceStart', clipId, language: 'en', room: roomId });
      for (const piece of pieces) speaker.ws.send(piece);
      const frame = await error;
      expect(frame, label).toMatchObject({ code: 'audio_rejected', clipId });
      expect(frame.message, label).toMatch(reason);
      // the rest of a refused clip is dropped quietly, then its end (once: the socket's frame rate is bounded)
      if (label === 'lost') for (const piece of pages.slice(pieces.length)) speaker.ws.send(piece);
      speaker.send({ type: 'voiceEnd', clipId });
    }
    const tooShort = speaker.nextNew<ErrorFrame>((frame) => frame.type === 'error');
    speaker.send({ type: 'voiceStart', clipId: 'short', language: 'en', room: roomId });
    speaker.ws.send(Buffer.concat(pages.slice(0, 2)));
    speaker.send({ type: 'voiceEnd', clipId: 'short' });
    expect(await tooShort).toMatchObject({
      code: 'audio_rejected',
      clipId: 'short',
      message: expect.stringMatching(/too short/),
    });

    const [marker] = await roomBarrier(speaker, roomId, [listener]);
    expect(listener.framesBefore(marker!).filter((frame) => frame.type === 'message')).toEqual([]);
    // still connected and chatting (the clip limit is spent: each refused clip took its turn)
    speaker.send({ type: 'chat', language: 'en', message: 'still here', room: roomId });
    await listener.next((frame) => frame.type === 'message' && frame.message === 'still here');
    expect(speaker.closeCode).toBeUndefined();
    speaker.close();
    listener.close();
  });
});

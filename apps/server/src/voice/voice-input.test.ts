import type { ErrorFrame, MessageFrame, TranslationCompleteFrame } from '@xtalk/protocol';
import { MAX_AUDIO_CLIP_BYTES } from '@xtalk/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readWavInfo } from '../audio/index.js';
import {
  speakerAndListener,
  roomBarrier,
  startServer,
  TestClient,
  type TestServer,
} from '../testing/harness.js';
import { InsufficientCreditsError } from '../translation/index.js';
import type { Usage } from '../translation/index.js';
import { fixture, withGranule } from './testing/clips.js';

/*
 * Voice input through the real server: binary frames over real sockets, the fake provider (it reads the
 * transcript a fixture carries in its Opus comment header, `XTALK=XTALK-TRANSCRIPT:<lang>:<text>`), and a
 * meter that records every engine call, so "never reached the provider" is observable.
 */

const charges: Usage[] = [];
let refuse = false;
/** The server's time: the clip limit's test stops it, so that no token refills while the clips arrive. */
let stoppedAt: number | undefined;
const clock = { now: () => stoppedAt ?? Date.now() };

describe('voice input in a room', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(
      { AI_PROVIDER: 'fake' },
      {
        clock,
        meter: {
          async charge(usage) {
            charges.push(usage);
            if (refuse && usage.task === 'transcription') throw new InsufficientCreditsError();
          },
        },
      },
    );
  });
  afterAll(() => server.close());
  beforeEach(() => {
    charges.length = 0;
    refuse = false;
    stoppedAt = undefined;
  });

  const room = (speaker = 'en', listener = 'ja') => speakerAndListener(server, { speaker, listener });

  const transcriptions = () => charges.filter((usage) => usage.task === 'transcription');
  const errorFor = (client: TestClient) => client.nextNew<ErrorFrame>((frame) => frame.type === 'error');

  it('posts the transcript as a message: stored, fanned out, translated and spoken, metered in seconds', async () => {
    const { alice, roomId, speaker, listener } = await room('en', 'ja');
    const text = 'Hello everyone, this message was spoken into the microphone.';
    speaker.ws.send(fixture('hello-en.opus'));

    for (const client of [speaker, listener]) {
      const message = await client.next<MessageFrame>((frame) => frame.type === 'message');
      expect(message).toMatchObject({
        type: 'message',
        message: text,
        language: 'en',
        username: alice.user.username,
      });
      const complete = await client.next<TranslationCompleteFrame>(
        (frame) => frame.type === 'translationComplete' && frame.originalTimestamp === message.id,
      );
      expect(complete.fullText).toBe(`[ja] ${text}`);
    }
    // the Japanese listener hears the spoken translation; the speaker does not
    await expect.poll(() => listener.binary.length, { timeout: 5000 }).toBe(1);
    expect(readWavInfo(listener.binary[0]!)?.sampleRate).toBeGreaterThan(0);
    expect(speaker.binary).toHaveLength(0);

    const [usage] = transcriptions();
    expect(usage).toMatchObject({ task: 'transcription', userId: alice.user.userId, roomId });
    expect(usage!.audioSeconds).toBeCloseTo(4.17, 1);

    // stored like typed chat: a late joiner's replay has it, with its translation
    const late = await TestClient.join(server, alice, roomId, 'en');
    expect(late.messages()).toEqual([
      expect.objectContaining({ message: text, translations: { ja: `[ja] ${text}` } }),
    ]);
    for (const client of [speaker, listener, late]) client.close();
  });

  it('stores a resent clip (same clientId) once and answers it with the stored message, untranscribed', async () => {
    const { roomId, speaker, listener } = await room('en', 'ja');
    speaker.send({ type: 'voiceClip', clientId: 'clip-1' });
    speaker.ws.send(fixture('hello-en.opus'));
    const first = await speaker.next<MessageFrame>((frame) => frame.type === 'message');
    expect(first.clientId).toBe('clip-1');
    expect(transcriptions()).toHaveLength(1);
    // the acknowledgement was lost in a drop: the client sends the clip again under the same id
    speaker.send({ type: 'voiceClip', clientId: 'clip-1' });
    speaker.ws.send(fixture('hello-en.opus'));
    const answer = await speaker.nextNew<MessageFrame>((frame) => frame.type === 'message');
    expect(answer.offset).toBe(first.offset);
    speaker.send({ type: 'chat', language: 'en', message: 'after the resend', room: roomId });
    await listener.next((frame) => frame.type === 'message' && frame.message === 'after the resend');
    expect(listener.messages().filter((frame) => (frame as MessageFrame).clientId === 'clip-1')).toHaveLength(
      1,
    );
    expect(transcriptions()).toHaveLength(1);
  });

  it('keeps the language the engine detected (Japanese spoken by someone set to English)', async () => {
    const { speaker, listener } = await room('en', 'en');
    speaker.ws.send(fixture('konnichiwa-ja.opus'));
    const message = await listener.next<MessageFrame>((frame) => frame.type === 'message');
    expect(message).toMatchObject({ message: 'こんにちは、今日はいい天気ですね。', language: 'ja' });
    const complete = await listener.next<TranslationCompleteFrame>(
      (frame) => frame.type === 'translationComplete' && frame.originalTimestamp === message.id,
    );
    expect(complete).toMatchObject({
      targetLanguage: 'en',
      fullText: '[en] こんにちは、今日はいい天気ですね。',
    });
    await expect.poll(() => listener.binary.length, { timeout: 5000 }).toBe(1);
    speaker.close();
    listener.close();
  });

  it('never sends silence or noise to the provider: the speaker alone is told "No speech detected"', async () => {
    const { roomId, speaker, listener } = await room();
    for (const name of ['silence.opus', 'noise.opus']) {
      const error = errorFor(speaker);
      speaker.ws.send(fixture(name));
      expect(await error).toEqual({ type: 'error', code: 'no_speech', message: 'No speech detected' });
    }
    expect(transcriptions()).toHaveLength(0);
    const [marker] = await roomBarrier(speaker, roomId, [listener]);
    expect(
      listener.framesBefore(marker!).filter((frame) => frame.type === 'error' || frame.type === 'message'),
    ).toEqual([]);
    speaker.close();
    listener.close();
  });

  it('drops a phrase the model invents on a nearly silent clip, but keeps it when really spoken', async () => {
    const { speaker, listener } = await room();
    const error = errorFor(speaker);
    speaker.ws.send(fixture('blip.opus')); // "ah", then 4 s of silence; the fake hears 'Thank you for watching.'
    expect(await error).toMatchObject({ code: 'no_speech', message: 'No speech detected' });
    expect(transcriptions()).toHaveLength(1); // it was voiced enough to ask the engine
    expect(listener.messages()).toHaveLength(0);

    speaker.ws.send(fixture('thanks-en.opus')); // espeak saying 'Thank you for watching.'
    const message = await listener.next<MessageFrame>((frame) => frame.type === 'message');
    expect(message.message).toBe('Thank you for watching.');
    speaker.close();
    listener.close();
  });

  it('rejects what is not a sound Ogg/Opus clip of at most 60 s, and the connection stays up', async () => {
    const { roomId, speaker, listener } = await room();
    const hello = fixture('hello-en.opus');
    const flipped = hello.slice();
    flipped[hello.length - 50]! ^= 0x10;
    const oversize = new Uint8Array(MAX_AUDIO_CLIP_BYTES + 1);
    oversize.set(hello);
    const cases: [string, Uint8Array, RegExp][] = [
      ['text bytes', new TextEncoder().encode('definitely not audio'), /not an Ogg file/],
      ['a WAV file', readWavLike(), /not an Ogg file/],
      ['OggS and garbage', new TextEncoder().encode('OggS'.padEnd(400, 'x')), /Ogg/],
      ['truncated', hello.slice(0, 3000), /truncated/],
      ['corrupted', flipped, /bad checksum/],
      ['too large', oversize, /too large \(1025 KiB; at most 1024 KiB\)/],
      ['too long', withGranule(hello, 48_000n * 63n), /too long \(63\.0 s; at most 60 s\)/],
    ];
    for (const [label, bytes, reason] of cases) {
      const error = errorFor(speaker);
      speaker.ws.send(bytes);
      const frame = await error;
      expect(frame.code, label).toBe('audio_rejected');
      expect(frame.message, label).toMatch(reason);
    }
    expect(transcriptions()).toHaveLength(0);
    // just under the cap (60 s plus the margin) is taken
    speaker.ws.send(withGranule(hello, 48_000n * 61n));
    await listener.next((frame) => frame.type === 'message');
    expect(transcriptions()[0]!.audioSeconds).toBeCloseTo(61, 0);
    // still connected and chatting
    speaker.send({ type: 'chat', language: 'en', message: 'still here', room: roomId });
    await listener.next((frame) => frame.type === 'message' && frame.message === 'still here');
    expect(speaker.closeCode).toBeUndefined();
    speaker.close();
    listener.close();
  });

  it('tells the speaker when there are no credits for it, and posts nothing', async () => {
    const { roomId, speaker, listener } = await room();
    refuse = true;
    const error = errorFor(speaker);
    speaker.ws.send(fixture('hello-en.opus'));
    expect(await error).toMatchObject({
      code: 'transcription_failed',
      message: expect.stringMatching(/credits/),
    });
    const [marker] = await roomBarrier(speaker, roomId, [listener]);
    expect(listener.framesBefore(marker!).filter((frame) => frame.type === 'message')).toHaveLength(0);
    speaker.close();
    listener.close();
  });

  it('limits how fast one connection sends clips', async () => {
    const { speaker, listener } = await room();
    const errors = () => speaker.frames.filter((frame): frame is ErrorFrame => frame.type === 'error');
    stoppedAt = Date.now();
    for (let i = 0; i < 6; i += 1) speaker.ws.send(fixture('thanks-en.opus'));
    await expect.poll(() => listener.messages().length + errors().length, { timeout: 5000 }).toBe(6);
    expect(listener.messages()).toHaveLength(4);
    expect(errors().map((frame) => frame.code)).toEqual(['rate_limited', 'rate_limited']);
    speaker.close();
    listener.close();
  });
});

function readWavLike(): Uint8Array {
  const bytes = new Uint8Array(2000);
  bytes.set(new TextEncoder().encode('RIFF\0\0\0\0WAVEfmt '));
  return bytes;
}

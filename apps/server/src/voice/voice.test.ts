import { describe, expect, it } from 'vitest';
import { decodeOggOpus, encodeWav, inspectOggOpus, oggCrc } from '../audio/index.js';
import { isKnownHallucination, hasWords } from './hallucinations.js';
import { fixture, pageOffsets, withGranule } from './testing/clips.js';
import { analyseVoice } from './voiced.js';
import { isNearSilent } from './voice-input.js';

/*
 * The checks a voice clip passes before a speech model sees it, on real Ogg/Opus clips: espeak-ng speech,
 * silence and white noise, made with sox and opusenc (fixtures/README.md).
 */

describe('Ogg/Opus container check', () => {
  it('reads the duration of real clips from the last granule position minus the pre-skip', () => {
    const hello = inspectOggOpus(fixture('hello-en.opus'));
    expect(hello).toMatchObject({ ok: true, channels: 1, preSkip: 312, inputSampleRate: 16_000 });
    expect(hello.ok && hello.durationSeconds).toBeCloseTo(4.17, 2);
    const silence = inspectOggOpus(fixture('silence.opus'));
    expect(silence.ok && silence.durationSeconds).toBeCloseTo(3, 2);
  });

  it('turns away what is not Ogg/Opus, damaged or cut short, with a reason', () => {
    const hello = fixture('hello-en.opus');
    const reasonOf = (bytes: Uint8Array) => {
      const check = inspectOggOpus(bytes);
      return check.ok ? 'ok' : check.reason;
    };
    expect(reasonOf(new Uint8Array(0))).toMatch(/not an Ogg file/);
    expect(reasonOf(new TextEncoder().encode('hello, this is not audio at all, but long enough'))).toMatch(
      /not an Ogg file/,
    );
    expect(reasonOf(encodeWav(new Float32Array(1600), 16_000))).toMatch(/not an Ogg file/);
    expect(reasonOf(hello.slice(0, hello.length - 100))).toMatch(/truncated/);
    expect(reasonOf(hello.slice(0, 40))).toMatch(/truncated/);
    // one bit flipped in the audio
    const flipped = hello.slice();
    flipped[hello.length - 50]! ^= 0x10;
    expect(reasonOf(flipped)).toMatch(/bad checksum/);
    // an Ogg file of another codec: the head packet renamed, checksum redone
    const vorbis = hello.slice();
    vorbis.set(new TextEncoder().encode('OpusHeaX'), 28);
    new DataView(vorbis.buffer).setUint32(22, oggCrc(vorbis.subarray(0, pageOffsets(hello)[1])), true);
    expect(reasonOf(vorbis)).toMatch(/no OpusHead/);
    // garbage after the last page
    const trailing = new Uint8Array(hello.length + 10);
    trailing.set(hello);
    expect(reasonOf(trailing)).toMatch(/truncated|OggS/);
    // only the header page
    expect(reasonOf(hello.slice(0, pageOffsets(hello)[1]))).toMatch(/ends after its first page/);
  });

  it('reports whatever length a clip claims (the caller caps it)', () => {
    const long = inspectOggOpus(withGranule(fixture('hello-en.opus'), 48_000n * 75n));
    expect(long.ok && long.durationSeconds).toBeCloseTo(75, 1);
  });
});

describe('voiced-audio check', () => {
  it('hears espeak speech in English and Japanese, and nothing in silence or white noise', async () => {
    const analyse = async (name: string) => analyseVoice(await decodeOggOpus(fixture(name)));
    const hello = await analyse('hello-en.opus');
    expect(hello.voiced).toBe(true);
    expect(hello.voicedRatio).toBeGreaterThan(0.4);
    expect(isNearSilent(hello)).toBe(false);
    expect((await analyse('konnichiwa-ja.opus')).voiced).toBe(true);
    expect((await analyse('thanks-en.opus')).voiced).toBe(true);

    const silence = await analyse('silence.opus');
    expect(silence).toMatchObject({ voiced: false, voicedMs: 0 });
    const noise = await analyse('noise.opus');
    expect(noise).toMatchObject({ voiced: false, voicedMs: 0 });
    expect(noise.peakDb).toBeGreaterThan(-45); // loud enough: it is the lack of a voice that fails it
  });

  it('calls a clip with one short syllable in seconds of silence voiced but nearly silent', async () => {
    const blip = analyseVoice(await decodeOggOpus(fixture('blip.opus')));
    expect(blip.voiced).toBe(true);
    expect(isNearSilent(blip)).toBe(true);
  });

  it('finds nothing in an empty or tiny buffer, and decodes 16 kHz mono', async () => {
    expect(analyseVoice(new Float32Array(0)).voiced).toBe(false);
    expect(analyseVoice(new Float32Array(100).fill(0.5)).voiced).toBe(false);
    const samples = await decodeOggOpus(fixture('thanks-en.opus'));
    expect(samples.length / 16_000).toBeCloseTo(1.47, 1);
  });
});

describe('what speech models invent on silence', () => {
  it('recognises the usual phrases, alone or repeated, in any case and punctuation', () => {
    for (const text of [
      'Thank you for watching.',
      'thanks for watching!',
      ' THANK YOU FOR WATCHING ',
      'ご視聴ありがとうございました',
      'ご視聴ありがとうございました。ご視聴ありがとうございました。',
      'Subtitles by the Amara.org community',
      'you',
      '...',
    ]) {
      expect(isKnownHallucination(text), text).toBe(true);
    }
    for (const text of [
      'Thank you for watching my dog while I was away',
      'Hello everyone',
      'ご視聴ありがとうございました、と彼は言った',
      'thank you',
    ]) {
      expect(isKnownHallucination(text), text).toBe(false);
    }
  });

  it('tells words from punctuation', () => {
    expect(hasWords(' . ,!')).toBe(false);
    expect(hasWords('…')).toBe(false);
    expect(hasWords('はい')).toBe(true);
    expect(hasWords('42')).toBe(true);
  });
});

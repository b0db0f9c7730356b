import { describe, expect, it } from 'vitest';
import { decodeOggOpus, inspectOggOpus, sineWav, wavToOggOpus } from './index.js';

describe('wavToOggOpus', () => {
  it('makes a self-contained Ogg/Opus stream of the same length a decoder reads back', async () => {
    const wav = sineWav(1.5, 440, 16_000);
    const ogg = await wavToOggOpus(wav);
    const check = inspectOggOpus(ogg);
    expect(check).toMatchObject({ ok: true, channels: 1, preSkip: 312, inputSampleRate: 16_000 });
    if (!check.ok) return;
    expect(check.pages).toBeGreaterThanOrEqual(3);
    expect(check.durationSeconds).toBeCloseTo(1.5, 2);
    const pcm = await decodeOggOpus(ogg);
    expect(pcm.length / 16_000).toBeCloseTo(1.5, 1);
    // a tone, not silence
    let energy = 0;
    for (const sample of pcm) energy += sample * sample;
    expect(Math.sqrt(energy / pcm.length)).toBeGreaterThan(0.1);
  });

  it('is about a tenth of the WAV or less at speech rates', async () => {
    const wav = sineWav(4, 300, 24_000);
    const ogg = await wavToOggOpus(wav);
    expect(ogg.length).toBeLessThan(wav.length / 10);
    expect(inspectOggOpus(ogg).ok).toBe(true);
  });

  it('resamples a rate Opus does not take', async () => {
    const ogg = await wavToOggOpus(sineWav(0.5, 440, 22_050));
    expect(inspectOggOpus(ogg)).toMatchObject({ ok: true, inputSampleRate: 24_000 });
  });

  it('refuses what is not WAV', async () => {
    await expect(wavToOggOpus(new Uint8Array([1, 2, 3]))).rejects.toThrow(/not a WAV/);
  });
});

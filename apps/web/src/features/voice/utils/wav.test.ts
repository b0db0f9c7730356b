import { describe, expect, it } from 'vitest';
import { WavError, validateWav } from './wav';

function wav(sampleRate: number, { riff = 'RIFF', wave = 'WAVE' } = {}): ArrayBuffer {
  const buffer = new ArrayBuffer(44);
  const view = new DataView(buffer);
  const write = (offset: number, text: string) =>
    [...text].forEach((c, i) => view.setUint8(offset + i, c.charCodeAt(0)));
  write(0, riff);
  view.setUint32(4, 36, true);
  write(8, wave);
  write(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  write(36, 'data');
  return buffer;
}

describe('validateWav', () => {
  it('accepts a canonical header and returns the sample rate', () => {
    expect(validateWav(wav(24_000))).toBe(24_000);
  });

  it('rejects missing RIFF or WAVE markers and short buffers', () => {
    expect(() => validateWav(wav(16_000, { riff: 'RIFX' }))).toThrow('Invalid WAV file header.');
    expect(() => validateWav(wav(16_000, { wave: 'AVI ' }))).toThrow('Invalid WAV file header.');
    expect(() => validateWav(new ArrayBuffer(10))).toThrow('Invalid WAV file header.');
  });

  it('rejects a zero sample rate with the rate in the message', () => {
    try {
      validateWav(wav(0));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(WavError);
      expect((error as WavError).message).toBe('Invalid sample rate read from WAV: 0');
      expect((error as WavError).params).toEqual({ rate: 0 });
    }
  });
});

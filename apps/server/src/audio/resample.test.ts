import { describe, expect, it } from 'vitest';
import { resample } from './resample.js';

/*
 * The resampler is a low-pass filter as well: a tone above the new Nyquist frequency must not fold back into
 * the band the transcriber hears, and a tone inside it must pass at its level.
 */

function tone(frequency: number, rate: number, seconds = 0.5): Float32Array {
  const samples = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < samples.length; i += 1)
    samples[i] = 0.5 * Math.sin((2 * Math.PI * frequency * i) / rate);
  return samples;
}

/** RMS away from the edges, where the filter sees silence beyond the input. */
function rms(samples: Float32Array): number {
  const middle = samples.subarray(100, samples.length - 100);
  let sum = 0;
  for (const sample of middle) sum += sample * sample;
  return Math.sqrt(sum / middle.length);
}

const INPUT_RMS = 0.5 / Math.SQRT2;

describe('resample', () => {
  it.each([
    [48_000, 16_000, 12_000],
    [44_100, 16_000, 11_000],
    [22_050, 16_000, 10_000],
  ])('%i Hz -> %i Hz removes a %i Hz tone above the new Nyquist frequency', (from, to, frequency) => {
    const out = resample(tone(frequency, from), from, to);
    expect(out.length).toBe(Math.floor((tone(frequency, from).length * to) / from));
    expect(rms(out) / INPUT_RMS).toBeLessThan(0.01); // at least 40 dB down
  });

  it.each([
    [48_000, 16_000, 1_000],
    [44_100, 16_000, 3_000],
    [8_000, 16_000, 1_000],
  ])('%i Hz -> %i Hz keeps a %i Hz tone at its level', (from, to, frequency) => {
    const out = resample(tone(frequency, from), from, to);
    expect(rms(out) / INPUT_RMS).toBeCloseTo(1, 1);
    // and it is still that tone: compare with the ideal samples at the new rate
    const ideal = tone(frequency, to);
    let error = 0;
    for (let i = 100; i < out.length - 100; i += 1) error = Math.max(error, Math.abs(out[i]! - ideal[i]!));
    expect(error).toBeLessThan(0.02);
  });

  it('returns the input when the rates match and refuses rates that are not positive integers', () => {
    const input = tone(440, 16_000);
    expect(resample(input, 16_000, 16_000)).toBe(input);
    expect(() => resample(input, 0, 16_000)).toThrow(RangeError);
    expect(() => resample(input, 44_100.5, 16_000)).toThrow(RangeError);
  });
});

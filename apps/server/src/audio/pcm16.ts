/*
 * Float samples in [-1, 1] as signed 16-bit PCM: clipped to the range, scaled by the largest positive
 * value so that +1 and -1 land on the same magnitude, and rounded. WAV files, the Opus encoder and the
 * Realtime stream all take their PCM16 from here, so each hears the same samples.
 */

/** PCM16 of Float samples in [-1, 1]; samples outside the range clip. */
export function floatToPcm16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i += 1) {
    out[i] = Math.round(Math.max(-1, Math.min(1, samples[i] ?? 0)) * 0x7fff);
  }
  return out;
}

/** PCM16 samples as little-endian bytes, the order of WAV data and of Realtime's audio. */
export function pcm16Bytes(samples: Int16Array): Uint8Array {
  const out = new Uint8Array(samples.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < samples.length; i += 1) view.setInt16(i * 2, samples[i] ?? 0, true);
  return out;
}

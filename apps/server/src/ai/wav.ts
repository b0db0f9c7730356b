/*
 * WAV (RIFF/WAVE, PCM16 little-endian) encoding and header checks. The web client accepts audio only with
 * RIFF and WAVE markers and a positive sample rate (spec section 5), so every provider's speech goes
 * through `isWav` before it reaches a room.
 */

/** Encode mono or interleaved samples in [-1, 1] (Float32) or PCM16 as a WAV file. */
export function encodeWav(samples: Float32Array | Int16Array, sampleRate: number, channels = 1): Uint8Array {
  const dataBytes = samples.length * 2;
  const out = new Uint8Array(44 + dataBytes);
  const view = new DataView(out.buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i += 1) out[offset + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channels * 2, true); // byte rate
  view.setUint16(32, channels * 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < samples.length; i += 1) {
    const sample = samples[i] ?? 0;
    const value =
      samples instanceof Int16Array ? sample : Math.round(Math.max(-1, Math.min(1, sample)) * 0x7fff);
    view.setInt16(44 + i * 2, value, true);
  }
  return out;
}

/** A sine tone as a 16 kHz mono PCM16 WAV (the fake provider's speech). */
export function sineWav(seconds: number, frequency = 440, sampleRate = 16_000): Uint8Array {
  const count = Math.max(1, Math.round(seconds * sampleRate));
  const samples = new Float32Array(count);
  for (let i = 0; i < count; i += 1) samples[i] = 0.3 * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
  return encodeWav(samples, sampleRate);
}

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Offset and length of the data chunk. */
  dataOffset: number;
  dataLength: number;
  durationSeconds: number;
}

/** Parse a WAV header; undefined when the bytes are not a WAV the client would accept. */
export function readWavInfo(bytes: Uint8Array): WavInfo | undefined {
  if (bytes.length < 12) return undefined;
  const ascii = (offset: number) => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  if (ascii(0) !== 'RIFF' || ascii(8) !== 'WAVE') return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 12;
  let format: { sampleRate: number; channels: number; bitsPerSample: number } | undefined;
  while (offset + 8 <= bytes.length) {
    const id = ascii(offset);
    const size = view.getUint32(offset + 4, true);
    if (id === 'fmt ' && offset + 24 <= bytes.length) {
      format = {
        channels: view.getUint16(offset + 10, true),
        sampleRate: view.getUint32(offset + 12, true),
        bitsPerSample: view.getUint16(offset + 22, true),
      };
    } else if (id === 'data' && format) {
      if (format.sampleRate <= 0) return undefined;
      // Streaming encoders write 0 or 0xffffffff as the data size; take what is there.
      const available = bytes.length - (offset + 8);
      const dataLength = size === 0 || size > available ? available : size;
      const bytesPerSecond = format.sampleRate * format.channels * Math.max(1, format.bitsPerSample / 8);
      return { ...format, dataOffset: offset + 8, dataLength, durationSeconds: dataLength / bytesPerSecond };
    }
    offset += 8 + size + (size % 2);
  }
  return undefined;
}

export function isWav(bytes: Uint8Array): boolean {
  return readWavInfo(bytes) !== undefined;
}

/** Mono Float32 samples of a PCM16 WAV, resampled (linear) to `targetRate`; for local speech recognition. */
export function wavToMonoFloat32(bytes: Uint8Array, targetRate = 16_000): Float32Array | undefined {
  const info = readWavInfo(bytes);
  if (!info || info.bitsPerSample !== 16) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset + info.dataOffset, info.dataLength);
  const frames = Math.floor(info.dataLength / (2 * info.channels));
  const mono = new Float32Array(frames);
  for (let frame = 0; frame < frames; frame += 1) {
    let sum = 0;
    for (let channel = 0; channel < info.channels; channel += 1) {
      sum += view.getInt16((frame * info.channels + channel) * 2, true) / 0x8000;
    }
    mono[frame] = sum / info.channels;
  }
  if (info.sampleRate === targetRate) return mono;
  const ratio = info.sampleRate / targetRate;
  const out = new Float32Array(Math.floor(frames / ratio));
  for (let i = 0; i < out.length; i += 1) {
    const position = i * ratio;
    const left = Math.floor(position);
    const right = Math.min(left + 1, frames - 1);
    const fraction = position - left;
    out[i] = (mono[left] ?? 0) * (1 - fraction) + (mono[right] ?? 0) * fraction;
  }
  return out;
}

import { readWavHeader } from '@xtalk/protocol';
import type { WavHeader } from '@xtalk/protocol';
import { floatToPcm16, pcm16Bytes } from './pcm16.js';
import { resample } from './resample.js';

/*
 * WAV (RIFF/WAVE, PCM16 little-endian) encoding and reading. Which headers are acceptable is the protocol's
 * `readWavHeader`, the rule the web client applies before playback, so every provider's
 * speech goes through `isWav` before it reaches a room.
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
  out.set(pcm16Bytes(samples instanceof Int16Array ? samples : floatToPcm16(samples)), 44);
  return out;
}

/** A sine tone as a 16 kHz mono PCM16 WAV (the fake provider's speech). */
export function sineWav(seconds: number, frequency = 440, sampleRate = 16_000): Uint8Array {
  const count = Math.max(1, Math.round(seconds * sampleRate));
  const samples = new Float32Array(count);
  for (let i = 0; i < count; i += 1) samples[i] = 0.3 * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
  return encodeWav(samples, sampleRate);
}

export interface WavInfo extends WavHeader {
  durationSeconds: number;
}

/** Parse a WAV header; undefined when the bytes are not a WAV the client would accept. */
export function readWavInfo(bytes: Uint8Array): WavInfo | undefined {
  const header = readWavHeader(bytes);
  if (!header.ok) return undefined;
  const { ok: _ok, ...info } = header;
  const bytesPerSecond = info.sampleRate * info.channels * Math.max(1, info.bitsPerSample / 8);
  return { ...info, durationSeconds: info.dataLength / bytesPerSecond };
}

export function isWav(bytes: Uint8Array): boolean {
  return readWavHeader(bytes).ok;
}

/** Mono Float32 samples of a PCM16 WAV, resampled (band-limited) to `targetRate`; for speech recognition. */
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
  return resample(mono, info.sampleRate, targetRate);
}

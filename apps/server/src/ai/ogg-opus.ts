import { OggOpusDecoder } from 'ogg-opus-decoder';

/*
 * Ogg/Opus (what the browser records, spec section 9: 16 kHz mono Opus) decoded in-process to 16 kHz mono
 * Float32 PCM: for the voiced-audio check before transcription and for local Whisper, which takes PCM.
 * `ogg-opus-decoder` is libopus compiled to WebAssembly: no native build, no ffmpeg
 * (docs/decisions/0004-voice-capture.md).
 */

export const PCM_SAMPLE_RATE = 16_000;
const OPUS_RATE = 48_000;

/** 'OggS' at the start: the capture pattern of an Ogg page. */
export function isOgg(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 && bytes[0] === 0x4f && bytes[1] === 0x67 && bytes[2] === 0x67 && bytes[3] === 0x53
  );
}

export class OpusDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpusDecodeError';
  }
}

/**
 * Low-pass (windowed sinc, cutoff just under 8 kHz) and keep every third sample: 48 kHz -> 16 kHz without
 * folding the 8-24 kHz band back into the speech band.
 */
const TAPS = (() => {
  const half = 24;
  const cutoff = 7_600 / OPUS_RATE; // cycles per input sample
  const taps = new Float32Array(2 * half + 1);
  let sum = 0;
  for (let i = -half; i <= half; i += 1) {
    const sinc = i === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * i) / (Math.PI * i);
    const window = 0.54 + 0.46 * Math.cos((Math.PI * i) / half); // Hamming
    taps[i + half] = sinc * window;
    sum += sinc * window;
  }
  for (let i = 0; i < taps.length; i += 1) taps[i]! /= sum;
  return taps;
})();

export function downsample48kTo16k(input: Float32Array): Float32Array {
  const half = (TAPS.length - 1) / 2;
  const out = new Float32Array(Math.floor(input.length / 3));
  for (let o = 0; o < out.length; o += 1) {
    const centre = o * 3;
    let acc = 0;
    if (centre >= half && centre + half < input.length) {
      const base = centre - half;
      for (let k = 0; k < TAPS.length; k += 1) acc += input[base + k]! * TAPS[k]!;
    } else {
      for (let k = -half; k <= half; k += 1) {
        const index = centre + k;
        if (index >= 0 && index < input.length) acc += input[index]! * TAPS[k + half]!;
      }
    }
    out[o] = acc;
  }
  return out;
}

/**
 * Decode a whole Ogg/Opus file to 16 kHz mono Float32 samples. Throws OpusDecodeError when nothing decodes
 * or the stream is corrupt.
 */
export async function decodeOggOpus(bytes: Uint8Array): Promise<Float32Array> {
  if (!isOgg(bytes)) throw new OpusDecodeError('not an Ogg stream');
  const decoder = new OggOpusDecoder();
  try {
    await decoder.ready;
    const decoded = await decoder.decodeFile(bytes);
    if (decoded.errors.length > 0) {
      throw new OpusDecodeError(`corrupt Opus data: ${decoded.errors[0]?.message ?? 'decode error'}`);
    }
    const channels = decoded.channelData;
    const first = channels[0];
    if (!first || decoded.samplesDecoded === 0) throw new OpusDecodeError('no Opus audio in the stream');
    let mono = first.subarray(0, decoded.samplesDecoded);
    if (channels.length > 1) {
      mono = new Float32Array(decoded.samplesDecoded);
      for (const channel of channels) {
        for (let i = 0; i < mono.length; i += 1) mono[i]! += (channel[i] ?? 0) / channels.length;
      }
    }
    return downsample48kTo16k(mono);
  } finally {
    decoder.free();
  }
}

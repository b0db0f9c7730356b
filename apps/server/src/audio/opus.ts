import type { OggOpusDecodedAudio, OggOpusDecoder } from 'ogg-opus-decoder';
import { lazyModule } from '../lazy-module.js';
import { isOgg } from './ogg.js';
import { resample } from './resample.js';

/*
 * Ogg/Opus (what the browser records: 16 kHz mono Opus) decoded in-process to 16 kHz mono
 * Float32 PCM: for the voiced-audio check before transcription and for local Whisper, which takes PCM.
 * `ogg-opus-decoder` is libopus compiled to WebAssembly: no native build, no ffmpeg
 * (docs/decisions/0004-voice-capture.md).
 */

export const PCM_SAMPLE_RATE = 16_000;

/** libopus is loaded by the first voice clip, not at start (decision 0116). */
const opusDecoder = lazyModule(async () => (await import('ogg-opus-decoder')).OggOpusDecoder);
const OPUS_RATE = 48_000;

export class OpusDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpusDecodeError';
  }
}

/**
 * Decode a whole Ogg/Opus file to 16 kHz mono Float32 samples. Throws OpusDecodeError when nothing decodes
 * or the stream is corrupt.
 */
export async function decodeOggOpus(bytes: Uint8Array): Promise<Float32Array> {
  if (!isOgg(bytes)) throw new OpusDecodeError('not an Ogg stream');
  const decoder = new (await opusDecoder())();
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
    return resample(mono, OPUS_RATE, PCM_SAMPLE_RATE);
  } finally {
    decoder.free();
  }
}

/** Decodes a streamed Ogg/Opus clip piece by piece (whole pages), to mono PCM at `rate` Hz. */
export interface OpusStreamDecoder {
  push(pages: Uint8Array): Promise<Float32Array>;
  free(): void;
}

export function createOpusStreamDecoder(rate = PCM_SAMPLE_RATE): OpusStreamDecoder {
  const decoding: Promise<OggOpusDecoder> = opusDecoder().then((Decoder) => new Decoder());
  // a failed load is reported by push; unobserved here it would be an unhandled rejection
  decoding.catch(() => undefined);
  let freed = false;
  return {
    async push(pages) {
      const decoder = await decoding;
      await decoder.ready;
      if (freed) return new Float32Array(0);
      // typed as synchronous, but the WebAssembly decoder answers with a promise
      const decoded = await (decoder.decode(pages) as OggOpusDecodedAudio | Promise<OggOpusDecodedAudio>);
      const first = decoded?.channelData[0];
      if (!first || decoded.samplesDecoded === 0) return new Float32Array(0);
      // edges of each piece are filtered against silence: a faint click every piece, inaudible to a model
      return resample(first.subarray(0, decoded.samplesDecoded), OPUS_RATE, rate);
    },
    free() {
      if (freed) return;
      freed = true;
      decoding.then(
        (decoder) => decoder.free(),
        () => undefined,
      );
    },
  };
}

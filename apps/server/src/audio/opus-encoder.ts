import { randomInt } from 'node:crypto';
import { lazyModule } from '../lazy-module.js';
import { writeOggOpus } from './ogg-writer.js';
import { floatToPcm16 } from './pcm16.js';
import { readWavInfo, wavToMonoFloat32 } from './wav.js';

/*
 * Spoken translations leave the server as Ogg/Opus: mono, speech-tuned (VOIP), SPEECH_BITRATE bits per
 * second, each sentence its own Ogg stream a browser decodes alone. The codec is libopus compiled to
 * WebAssembly (`opusscript`): no native build, nothing fetched at install; the container is ogg-writer.ts.
 * Encoding runs on the event loop, so it yields between slices of frames.
 */

/** Bits per second: plenty for speech, about a twelfth of 16 kHz PCM16. */
export const SPEECH_BITRATE = 24_000;
const OPUS_RATES = [8_000, 12_000, 16_000, 24_000, 48_000];
const DEFAULT_RATE = 24_000;
/** 20 ms frames. */
const FRAMES_PER_SECOND = 50;
/** The encoder's lookahead (2.5 ms + 4 ms), in 48 kHz samples: the decoder's pre-skip. */
const PRE_SKIP = 312;
/** Frames encoded between two turns of the event loop. */
const SLICE_FRAMES = 25;
const OPUS_SET_COMPLEXITY = 4010;
const COMPLEXITY = 5;

const opusScript = lazyModule(async () => (await import('opusscript')).default);

export class OpusEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpusEncodeError';
  }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** PCM16 samples, at a rate Opus takes, of a WAV file (mixed to mono, resampled when needed). */
export function wavToOpusInput(wav: Uint8Array): { samples: Int16Array; rate: number } {
  const info = readWavInfo(wav);
  if (!info) throw new OpusEncodeError('not a WAV file');
  const rate = OPUS_RATES.includes(info.sampleRate) ? info.sampleRate : DEFAULT_RATE;
  const floats = wavToMonoFloat32(wav, rate);
  if (!floats) throw new OpusEncodeError('only 16-bit WAV is encoded');
  return { samples: floatToPcm16(floats), rate };
}

/** Encode mono PCM16 at `rate` (8, 12, 16, 24 or 48 kHz) as a self-contained Ogg/Opus stream. */
export async function encodeOggOpus(samples: Int16Array, rate: number): Promise<Uint8Array> {
  if (!OPUS_RATES.includes(rate)) throw new OpusEncodeError(`Opus does not take ${rate} Hz`);
  const OpusScript = await opusScript();
  const encoder = new OpusScript(rate as 24_000, 1, OpusScript.Application.VOIP);
  try {
    encoder.setBitrate(SPEECH_BITRATE);
    encoder.encoderCTL(OPUS_SET_COMPLEXITY, COMPLEXITY);
    const frame = rate / FRAMES_PER_SECOND;
    const lookahead = (PRE_SKIP * rate) / 48_000;
    const count = Math.ceil((samples.length + lookahead) / frame);
    const packets: Uint8Array[] = [];
    const input = new Int16Array(frame);
    for (let index = 0; index < count; index += 1) {
      if (index > 0 && index % SLICE_FRAMES === 0) await turn();
      input.fill(0);
      input.set(samples.subarray(index * frame, (index + 1) * frame));
      packets.push(new Uint8Array(encoder.encode(input as unknown as Buffer, frame)));
    }
    return writeOggOpus(
      {
        packets,
        samplesPerPacket: 48_000 / FRAMES_PER_SECOND,
        preSkip: PRE_SKIP,
        samples: Math.round((samples.length * 48_000) / rate),
        inputSampleRate: rate,
      },
      randomInt(0, 2 ** 32),
    );
  } finally {
    encoder.delete();
  }
}

/** A speech engine's WAV as Ogg/Opus. */
export async function wavToOggOpus(wav: Uint8Array): Promise<Uint8Array> {
  const { samples, rate } = wavToOpusInput(wav);
  return encodeOggOpus(samples, rate);
}

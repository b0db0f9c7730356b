/*
 * Audio formats in one place: WAV (speech out, PCM for recognition), Ogg/Opus (speech in: container check
 * and decoding) and the band-limited resampler both use.
 */
export { encodeWav, sineWav, readWavInfo, isWav, wavToMonoFloat32 } from './wav.js';
export type { WavInfo } from './wav.js';
export { inspectOggOpus, isOgg, oggCrc, readOggPage } from './ogg.js';
export type { OggOpusCheck, OggOpusInfo, OggPage } from './ogg.js';
export { decodeOggOpus, createOpusStreamDecoder, OpusDecodeError, PCM_SAMPLE_RATE } from './opus.js';
export type { OpusStreamDecoder } from './opus.js';
export { resample } from './resample.js';
export { floatToPcm16, pcm16Bytes } from './pcm16.js';
export { OggOpusStream } from './ogg-stream.js';
export type { OggStreamResult } from './ogg-stream.js';
export {
  encodeOggOpus,
  wavToOggOpus,
  wavToOpusInput,
  OpusEncodeError,
  SPEECH_BITRATE,
} from './opus-encoder.js';
export { writeOggOpus } from './ogg-writer.js';

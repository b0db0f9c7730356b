import { readWavHeader } from '@xtalk/protocol';

/*
 * Spoken translations arrive as WAV. The header rule is the protocol's `readWavHeader`, the
 * same one the server applies before sending; checked before playback so a broken frame gives a clear
 * message, not silence.
 */

export class WavError extends Error {
  constructor(
    message: string,
    /** i18n key and params of the message, so the toast can be shown in the interface language. */
    readonly key: 'audio.badHeader' | 'audio.badRate',
    readonly params?: Record<string, number>,
  ) {
    super(message);
    this.name = 'WavError';
  }
}

/** Returns the sample rate of a valid WAV header, or throws a WavError. */
export function validateWav(buffer: ArrayBuffer): number {
  const header = readWavHeader(new Uint8Array(buffer));
  if (header.ok) return header.sampleRate;
  if (header.problem === 'rate') {
    throw new WavError(`Invalid sample rate read from WAV: ${header.sampleRate}`, 'audio.badRate', {
      rate: header.sampleRate,
    });
  }
  throw new WavError('Invalid WAV file header.', 'audio.badHeader');
}

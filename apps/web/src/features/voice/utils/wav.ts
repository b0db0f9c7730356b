/*
 * Spoken translations arrive as WAV (spec section 5): the header must carry the RIFF and WAVE markers and
 * a positive sample rate. Checked before playback so a broken frame gives a clear message, not silence.
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

const RIFF_HEADER_BYTES = 28;

function ascii(view: DataView, offset: number, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += String.fromCharCode(view.getUint8(offset + i));
  return text;
}

/** Returns the sample rate of a valid WAV header, or throws a WavError. */
export function validateWav(buffer: ArrayBuffer): number {
  if (buffer.byteLength < RIFF_HEADER_BYTES)
    throw new WavError('Invalid WAV file header.', 'audio.badHeader');
  const view = new DataView(buffer);
  if (ascii(view, 0, 4) !== 'RIFF' || ascii(view, 8, 4) !== 'WAVE')
    throw new WavError('Invalid WAV file header.', 'audio.badHeader');
  // Canonical layout: the `fmt ` chunk starts at 12 and its sample rate sits at byte 24, little-endian.
  const sampleRate = view.getUint32(24, true);
  if (!(sampleRate > 0))
    throw new WavError(`Invalid sample rate read from WAV: ${sampleRate}`, 'audio.badRate', {
      rate: sampleRate,
    });
  return sampleRate;
}

/*
 * The one WAV header rule: spoken translations are RIFF/WAVE with a `fmt ` chunk before the
 * `data` chunk and a positive sample rate. The server checks every provider's speech with it before the
 * audio reaches a room, and the web client checks every frame with it before playback, so both sides
 * accept exactly the same files.
 */

export interface WavHeader {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Offset and length of the data chunk. */
  dataOffset: number;
  dataLength: number;
}

export type WavHeaderCheck =
  | ({ ok: true } & WavHeader)
  /** `header`: no RIFF/WAVE markers, or no `fmt ` then `data` chunk; `rate`: a sample rate of 0. */
  | { ok: false; problem: 'header' }
  | { ok: false; problem: 'rate'; sampleRate: number };

function fourCC(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + 4));
}

/** Walk the RIFF chunks of a WAV file up to its data chunk. */
export function readWavHeader(bytes: Uint8Array): WavHeaderCheck {
  if (bytes.length < 12 || fourCC(bytes, 0) !== 'RIFF' || fourCC(bytes, 8) !== 'WAVE') {
    return { ok: false, problem: 'header' };
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 12;
  let format: Pick<WavHeader, 'sampleRate' | 'channels' | 'bitsPerSample'> | undefined;
  while (offset + 8 <= bytes.length) {
    const id = fourCC(bytes, offset);
    const size = view.getUint32(offset + 4, true);
    if (id === 'fmt ' && offset + 24 <= bytes.length) {
      format = {
        channels: view.getUint16(offset + 10, true),
        sampleRate: view.getUint32(offset + 12, true),
        bitsPerSample: view.getUint16(offset + 22, true),
      };
    } else if (id === 'data' && format) {
      if (format.sampleRate <= 0) return { ok: false, problem: 'rate', sampleRate: format.sampleRate };
      // Streaming encoders write 0 or 0xffffffff as the data size; take what is there.
      const available = bytes.length - (offset + 8);
      const dataLength = size === 0 || size > available ? available : size;
      return { ok: true, ...format, dataOffset: offset + 8, dataLength };
    }
    offset += 8 + size + (size % 2);
  }
  return { ok: false, problem: 'header' };
}

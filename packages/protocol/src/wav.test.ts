import { describe, expect, it } from 'vitest';
import { readWavHeader } from './wav.js';

/** A PCM16 mono header with optional extra chunk before `data` and the data size a streaming encoder writes. */
function wav(sampleRate: number, { extra = false, dataSize = 4 } = {}): Uint8Array {
  const chunks = extra ? 12 : 0;
  const bytes = new Uint8Array(44 + chunks + 4);
  const view = new DataView(bytes.buffer);
  const write = (offset: number, text: string) => bytes.set(new TextEncoder().encode(text), offset);
  write(0, 'RIFF');
  write(8, 'WAVE');
  write(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint16(34, 16, true);
  if (extra) {
    write(36, 'LIST');
    view.setUint32(40, 4, true);
  }
  write(36 + chunks, 'data');
  view.setUint32(40 + chunks, dataSize, true);
  return bytes;
}

describe('readWavHeader', () => {
  it('walks the chunks to the data, whatever comes between', () => {
    expect(readWavHeader(wav(24_000))).toEqual({
      ok: true,
      sampleRate: 24_000,
      channels: 1,
      bitsPerSample: 16,
      dataOffset: 44,
      dataLength: 4,
    });
    expect(readWavHeader(wav(16_000, { extra: true }))).toMatchObject({ ok: true, dataOffset: 56 });
  });

  it('takes what is there when a streaming encoder wrote no data size', () => {
    expect(readWavHeader(wav(16_000, { dataSize: 0xffffffff }))).toMatchObject({ ok: true, dataLength: 4 });
  });

  it('names the problem: the header, or a zero sample rate', () => {
    expect(readWavHeader(new Uint8Array(8))).toEqual({ ok: false, problem: 'header' });
    expect(readWavHeader(wav(16_000).subarray(0, 36))).toEqual({ ok: false, problem: 'header' });
    expect(readWavHeader(wav(0))).toEqual({ ok: false, problem: 'rate', sampleRate: 0 });
  });
});

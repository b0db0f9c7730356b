import { readFileSync } from 'node:fs';
import { oggCrc, readOggPage } from '../../audio/index.js';

/* Test helpers: the committed clips (fixtures/README.md) and ways to damage them. */

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../fixtures/${name}`, import.meta.url)));
}

/** Byte offsets of the Ogg pages of a valid file. */
export function pageOffsets(bytes: Uint8Array): number[] {
  const offsets: number[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const page = readOggPage(bytes, offset, offsets.length);
    if (typeof page === 'string') throw new Error(page);
    offsets.push(offset);
    offset = page.end;
  }
  return offsets;
}

/** The same clip claiming another length: last page's granule rewritten, checksum redone (a lying clip). */
export function withGranule(bytes: Uint8Array, granule: bigint): Uint8Array {
  const copy = bytes.slice();
  const last = pageOffsets(copy).at(-1)!;
  const view = new DataView(copy.buffer);
  view.setBigInt64(last + 6, granule, true);
  const end = copy.length;
  view.setUint32(last + 22, oggCrc(copy.subarray(last, end)), true);
  return copy;
}

/** The pages of a valid file, each as its own bytes (the pieces a streaming client sends). */
export function pagesOf(bytes: Uint8Array): Uint8Array[] {
  const offsets = [...pageOffsets(bytes), bytes.length];
  return offsets.slice(0, -1).map((offset, index) => bytes.slice(offset, offsets[index + 1]));
}

/**
 * The same clip with another fake-provider script in its comment header: the OpusTags page rebuilt with
 * `XTALK-TRANSCRIPT:<lang>:<text>` (and its checksum redone), every other page unchanged.
 */
export function withTranscript(bytes: Uint8Array, language: string, text: string): Uint8Array {
  const pages = pagesOf(bytes);
  const vendor = Buffer.from('xtalk-test');
  const comment = Buffer.from(`XTALK=XTALK-TRANSCRIPT:${language}:${text}`);
  const u32 = (value: number) => {
    const out = Buffer.alloc(4);
    out.writeUInt32LE(value);
    return out;
  };
  // a second comment after it: its length field ends the script (as in the committed fixtures)
  const encoder = Buffer.from('ENCODER=xtalk-test');
  const body = Buffer.concat([
    Buffer.from('OpusTags'),
    u32(vendor.length),
    vendor,
    u32(2),
    u32(comment.length),
    comment,
    u32(encoder.length),
    encoder,
  ]);
  const lacing: number[] = [];
  for (let left = body.length; ; left -= 255) {
    lacing.push(Math.min(255, left));
    if (left < 255) break;
  }
  const old = pages[1]!;
  const header = Buffer.from(old.subarray(0, 27));
  header[26] = lacing.length;
  const page = new Uint8Array(Buffer.concat([header, Buffer.from(lacing), body]));
  new DataView(page.buffer).setUint32(22, oggCrc(page), true);
  return new Uint8Array(Buffer.concat([pages[0]!, page, ...pages.slice(2)]));
}

import { readFileSync } from 'node:fs';
import { oggCrc, readOggPage } from '../audio/index.js';

/* Test helpers: the committed clips (fixtures/README.md) and ways to damage them. */

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
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

import { oggCrc, readOggPage, readOpusHeadOf } from './ogg.js';

/*
 * A streamed Ogg/Opus clip (protocol 3), checked piece by piece: each piece is the next whole pages of one
 * Ogg/Opus stream, with the checks `inspectOggOpus` makes on a whole clip (capture pattern, version, CRC,
 * one serial, OpusHead then OpusTags), made as the pages arrive. Page sequence numbers are contiguous in
 * Ogg, so a lost piece (a gap) and a piece out of order (a step back) are told apart and named.
 */

export type OggStreamResult =
  | { ok: true; durationSeconds: number; bytes: number; pages: number }
  | { ok: false; reason: string; kind: 'lost' | 'out_of_order' | 'invalid' | 'too_large' };

export class OggOpusStream {
  private readonly pieces: Uint8Array[] = [];
  private total = 0;
  private pages = 0;
  private serial = 0;
  private preSkip = 0;
  private lastGranule = 0n;
  private failed: OggStreamResult | undefined;

  constructor(private readonly maxBytes: number) {}

  /** Seconds of audio received so far (last granule at 48 kHz minus the pre-skip). */
  get durationSeconds(): number {
    return Math.max(0, Number(this.lastGranule) - this.preSkip) / 48_000;
  }

  get byteLength(): number {
    return this.total;
  }

  /** Every byte received, as one Ogg/Opus file (valid as a whole clip once it has two pages). */
  bytes(): Uint8Array {
    const out = new Uint8Array(this.total);
    let at = 0;
    for (const piece of this.pieces) {
      out.set(piece, at);
      at += piece.length;
    }
    return out;
  }

  /** Check and keep the next piece; a failed stream stays failed (it takes nothing more). */
  push(piece: Uint8Array): OggStreamResult {
    if (this.failed) return this.failed;
    const result = this.check(piece);
    if (!result.ok) {
      this.failed = result;
      return result;
    }
    this.pieces.push(piece);
    this.total += piece.length;
    return result;
  }

  private check(piece: Uint8Array): OggStreamResult {
    const fail = (reason: string, kind: 'lost' | 'out_of_order' | 'invalid' | 'too_large' = 'invalid') =>
      ({ ok: false, reason, kind }) as const;
    if (this.total + piece.length > this.maxBytes) {
      return fail(
        `too large (over ${Math.floor(this.maxBytes / 1024)} KiB; at most ${Math.floor(this.maxBytes / 1024)} KiB)`,
        'too_large',
      );
    }
    if (piece.length === 0) return fail('an empty piece');
    let offset = 0;
    let pages = this.pages;
    let granule = this.lastGranule;
    while (offset < piece.length) {
      const page = readOggPage(piece, offset, pages);
      if (typeof page === 'string') {
        return fail(
          offset === 0 && pages === 0
            ? `not an Ogg stream (${page})`
            : `${page} (a piece must hold whole pages)`,
        );
      }
      if (oggCrc(piece.subarray(offset, page.end)) !== page.crc)
        return fail(`bad checksum on Ogg page ${pages}`);
      if (pages === 0) {
        const head = readOpusHeadOf(piece, page);
        if (typeof head === 'string') return fail(head);
        this.serial = page.serial;
        this.preSkip = head.preSkip;
      } else if (page.serial !== this.serial) {
        return fail('more than one stream in the Ogg data');
      }
      if (page.sequence > pages) {
        return fail(`a piece was lost: expected Ogg page ${pages}, got page ${page.sequence}`, 'lost');
      }
      if (page.sequence < pages) {
        return fail(
          `a piece came out of order: Ogg page ${page.sequence} after page ${pages - 1}`,
          'out_of_order',
        );
      }
      if (
        pages === 1 &&
        String.fromCharCode(...piece.subarray(page.bodyStart, page.bodyStart + 8)) !== 'OpusTags'
      ) {
        return fail('no OpusTags header in the second Ogg page');
      }
      if (page.granule >= 0n && page.granule > granule) granule = page.granule;
      pages += 1;
      offset = page.end;
    }
    this.pages = pages;
    this.lastGranule = granule;
    return { ok: true, durationSeconds: this.durationSeconds, bytes: this.total + piece.length, pages };
  }
}

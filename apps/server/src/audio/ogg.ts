/*
 * Ogg/Opus container check (RFC 3533 pages, RFC 7845 Opus mapping), done on the raw bytes before anything
 * decodes them: every page starts with the capture pattern 'OggS', has version 0, a correct CRC and the
 * one logical stream's serial; the first page is the beginning of the stream and carries 'OpusHead'; the
 * second starts with 'OpusTags'. The duration is the last granule position (always counted at 48 kHz in
 * Ogg/Opus) minus the pre-skip.
 */

export interface OggOpusInfo {
  durationSeconds: number;
  channels: number;
  preSkip: number;
  /** The rate the recorder says it captured at (informational; Opus always decodes at 48 kHz). */
  inputSampleRate: number;
  pages: number;
}

export type OggOpusCheck = ({ ok: true } & OggOpusInfo) | { ok: false; reason: string };

/** One page's header fields and where its body lies. */
export interface OggPage {
  flags: number;
  granule: bigint;
  serial: number;
  sequence: number;
  crc: number;
  bodyStart: number;
  /** Offset just past the page: where the next one starts. */
  end: number;
}

const CAPTURE_PATTERN = 'OggS';
const HEADER_BYTES = 27;
const FLAG_BOS = 0x02;

/** CRC-32 of Ogg pages: polynomial 0x04c11db7, not reflected, initial value 0. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i += 1) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit += 1) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

export function oggCrc(page: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < page.length; i += 1) {
    // the CRC field itself (bytes 22..25) counts as zero
    const byte = i >= 22 && i < 26 ? 0 : (page[i] as number);
    crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] as number)) >>> 0;
  }
  return crc;
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

/** The capture pattern at the start: this is an Ogg stream (what, and whether intact, is `inspectOggOpus`). */
export function isOgg(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && ascii(bytes, 0, 4) === CAPTURE_PATTERN;
}

/** Read the page at `offset` (page number `index`, for messages); a readable reason when it is damaged. */
export function readOggPage(bytes: Uint8Array, offset: number, index: number): OggPage | string {
  if (offset + HEADER_BYTES > bytes.length) return `truncated Ogg page header at byte ${offset}`;
  if (ascii(bytes, offset, 4) !== CAPTURE_PATTERN) return `no OggS capture pattern at byte ${offset}`;
  if (bytes[offset + 4] !== 0) return 'unsupported Ogg version';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const segments = bytes[offset + 26] as number;
  if (offset + HEADER_BYTES + segments > bytes.length) return 'truncated Ogg segment table';
  let bodyLength = 0;
  for (let i = 0; i < segments; i += 1) bodyLength += bytes[offset + HEADER_BYTES + i] as number;
  const bodyStart = offset + HEADER_BYTES + segments;
  const end = bodyStart + bodyLength;
  if (end > bytes.length) return `truncated Ogg page ${index}`;
  return {
    flags: bytes[offset + 5] as number,
    granule: view.getBigInt64(offset + 6, true),
    serial: view.getUint32(offset + 14, true),
    sequence: view.getUint32(offset + 18, true),
    crc: view.getUint32(offset + 22, true),
    bodyStart,
    end,
  };
}

interface OpusHead {
  channels: number;
  preSkip: number;
  inputSampleRate: number;
}

/** The identification header in the body of the first page. */
export function readOpusHeadOf(bytes: Uint8Array, page: OggPage): OpusHead | string {
  const { bodyStart } = page;
  if (!(page.flags & FLAG_BOS)) return 'the first Ogg page does not begin a stream';
  if (page.end - bodyStart < 19 || ascii(bytes, bodyStart, 8) !== 'OpusHead') {
    return 'not Opus audio (no OpusHead in the first page)';
  }
  if ((bytes[bodyStart + 8] as number) >> 4 !== 0) return 'unsupported OpusHead version';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const channels = bytes[bodyStart + 9] as number;
  if (channels < 1 || channels > 2) return `unsupported channel count ${channels}`;
  return {
    channels,
    preSkip: view.getUint16(bodyStart + 10, true),
    inputSampleRate: view.getUint32(bodyStart + 12, true),
  };
}

/** Walk the pages of an Ogg/Opus file; a readable reason when it is anything else or damaged. */
export function inspectOggOpus(bytes: Uint8Array): OggOpusCheck {
  const fail = (reason: string): OggOpusCheck => ({ ok: false, reason });
  if (bytes.length < HEADER_BYTES || !isOgg(bytes)) return fail('not an Ogg file (no OggS capture pattern)');
  let offset = 0;
  let pages = 0;
  let head: OpusHead | undefined;
  let serial = 0;
  let expectedSequence = 0;
  let lastGranule = 0n;

  while (offset < bytes.length) {
    const page = readOggPage(bytes, offset, pages);
    if (typeof page === 'string') return fail(page);
    if (oggCrc(bytes.subarray(offset, page.end)) !== page.crc)
      return fail(`bad checksum on Ogg page ${pages}`);
    if (pages === 0) {
      const read = readOpusHeadOf(bytes, page);
      if (typeof read === 'string') return fail(read);
      head = read;
      serial = page.serial;
    } else {
      if (page.serial !== serial) return fail('more than one stream in the Ogg file');
      if (page.sequence !== expectedSequence) return fail(`Ogg page ${pages} is out of sequence`);
      if (pages === 1 && ascii(bytes, page.bodyStart, 8) !== 'OpusTags') {
        return fail('no OpusTags header in the second Ogg page');
      }
    }
    expectedSequence = page.sequence + 1;
    if (page.granule >= 0n && page.granule > lastGranule) lastGranule = page.granule;
    pages += 1;
    offset = page.end;
  }
  if (pages < 2 || !head) return fail('the Ogg file ends after its first page');
  const samples = Number(lastGranule) - head.preSkip;
  return { ok: true, durationSeconds: Math.max(0, samples) / 48_000, ...head, pages };
}

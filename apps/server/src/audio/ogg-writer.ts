import { oggCrc } from './ogg.js';

/*
 * Ogg/Opus writing (RFC 3533 pages, RFC 7845 mapping): the container around packets an Opus encoder made.
 * One logical stream per call: OpusHead on the first page (beginning of stream), OpusTags on the second,
 * then the audio packets, the last page marked end of stream. Granule positions count 48 kHz samples, as
 * Ogg/Opus always does, whatever rate the audio was encoded at.
 */

const FLAG_BOS = 0x02;
const FLAG_EOS = 0x04;
const HEADER_BYTES = 27;
const MAX_SEGMENTS = 255;
const VENDOR = 'XTalk';

export interface OggOpusPackets {
  packets: readonly Uint8Array[];
  /** 48 kHz samples each packet holds (every packet the same length). */
  samplesPerPacket: number;
  /** 48 kHz samples the decoder drops at the start (the encoder's lookahead). */
  preSkip: number;
  /** Samples of real audio, at 48 kHz: the end of the last page, after which padding is cut. */
  samples: number;
  inputSampleRate: number;
}

function lacing(length: number): number[] {
  const values = new Array<number>(Math.floor(length / 255)).fill(255);
  values.push(length % 255);
  return values;
}

function page(
  body: Uint8Array[],
  flags: number,
  granule: bigint,
  serial: number,
  sequence: number,
): Uint8Array {
  const segments = body.flatMap((packet) => lacing(packet.length));
  const bodyLength = body.reduce((sum, packet) => sum + packet.length, 0);
  const out = new Uint8Array(HEADER_BYTES + segments.length + bodyLength);
  const view = new DataView(out.buffer);
  out.set([0x4f, 0x67, 0x67, 0x53], 0); // 'OggS'
  out[4] = 0; // version
  out[5] = flags;
  view.setBigInt64(6, granule, true);
  view.setUint32(14, serial, true);
  view.setUint32(18, sequence, true);
  out[26] = segments.length;
  out.set(segments, HEADER_BYTES);
  let at = HEADER_BYTES + segments.length;
  for (const packet of body) {
    out.set(packet, at);
    at += packet.length;
  }
  view.setUint32(22, oggCrc(out), true);
  return out;
}

function opusHead(preSkip: number, inputSampleRate: number): Uint8Array {
  const head = new Uint8Array(19);
  const view = new DataView(head.buffer);
  head.set(new TextEncoder().encode('OpusHead'), 0);
  head[8] = 1; // version
  head[9] = 1; // mono
  view.setUint16(10, preSkip, true);
  view.setUint32(12, inputSampleRate, true);
  view.setInt16(16, 0, true); // output gain
  head[18] = 0; // channel mapping family: mono/stereo
  return head;
}

function opusTags(): Uint8Array {
  const vendor = new TextEncoder().encode(VENDOR);
  const tags = new Uint8Array(8 + 4 + vendor.length + 4);
  const view = new DataView(tags.buffer);
  tags.set(new TextEncoder().encode('OpusTags'), 0);
  view.setUint32(8, vendor.length, true);
  tags.set(vendor, 12);
  view.setUint32(12 + vendor.length, 0, true); // no comments
  return tags;
}

/** A self-contained Ogg/Opus stream of mono packets; `serial` names the logical stream. */
export function writeOggOpus(audio: OggOpusPackets, serial: number): Uint8Array {
  const pages: Uint8Array[] = [
    page([opusHead(audio.preSkip, audio.inputSampleRate)], FLAG_BOS, 0n, serial, 0),
    page([opusTags()], 0, 0n, serial, 1),
  ];
  const end = BigInt(audio.preSkip + audio.samples);
  let body: Uint8Array[] = [];
  let segments = 0;
  let granule = 0;
  const flush = (last: boolean) => {
    const at = last ? end : BigInt(granule);
    pages.push(page(body, last ? FLAG_EOS : 0, at, serial, pages.length));
    body = [];
    segments = 0;
  };
  audio.packets.forEach((packet, index) => {
    const needed = lacing(packet.length).length;
    if (segments + needed > MAX_SEGMENTS) flush(false);
    body.push(packet);
    segments += needed;
    granule += audio.samplesPerPacket;
    if (index === audio.packets.length - 1) flush(true);
  });
  if (audio.packets.length === 0) flush(true);
  let length = 0;
  for (const each of pages) length += each.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const each of pages) {
    out.set(each, at);
    at += each.length;
  }
  return out;
}

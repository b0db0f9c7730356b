import type { ServerFrame } from '@xtalk/protocol';

/*
 * What travels on a room's bus channel. A frame is serialised once per room, here, not once per listener:
 * every node passes the same bytes to each of its sockets.
 *   [kind][u8 n][language: n bytes][u8 m][except username: m bytes][body]
 * kind 0x01: body is a JSON frame, sent as text; 0x02: body is WAV, sent as binary; 0x03: a JSON frame
 * stored at a room offset, which follows the header as 6 bytes (big-endian) so a node can order and
 * de-duplicate without parsing the body; 0x04: a spoken sentence, its `speech` frame's length (4 bytes,
 * big-endian), the frame, then its Ogg/Opus, sent as text then binary; 0x05: a JSON frame for the
 * connections of some protocol versions only, which follow the header as two bytes (from, below: a hot
 * room's MEMBERS for current clients, the names it stands for to older ones); 0x06: a node's hello, nothing
 * but the kind and the node's id, sent when it takes a room on (room-reach.ts); 0x07: a JSON frame for the
 * other nodes' members only, its version range as 0x05's, then its sender's id ([u8 k][id]); 0x08, on a
 * user's channel: the kind alone, the user's profile changed on one of their connections and the others
 * take it too. An empty language means every
 * listener; `except` skips that user's connections (their own JOIN, their own audio). A node that predates a
 * kind drops its envelopes (a rolling deploy: its members miss those presence frames, nothing logged).
 */
const TEXT = 0x01;
const AUDIO = 0x02;
const LOGGED_TEXT = 0x03;
const SPEECH = 0x04;
const VERSIONED_TEXT = 0x05;
/** A node that now holds the room says so (room-reach.ts); its body is the node's id. Never a member's. */
const HELLO = 0x06;
/** A frame that its own node's members already had (a swept node's presence coming back). */
const ELSEWHERE_TEXT = 0x07;
/** A user's profile changed (user channels only): never a member's frame. */
const RENAMED = 0x08;
const OFFSET_BYTES = 6;
/** No upper bound on the protocol versions of a versioned frame's audience. */
const ANY_VERSION = 255;

export interface Audience {
  /** Only connections listening in this language. */
  language?: string;
  /** Not this user's connections. */
  exceptUsername?: string;
  /** Only connections of this protocol version or later. */
  fromVersion?: number;
  /** Only connections of a protocol version below this. */
  belowVersion?: number;
  /** Only the other nodes' connections: never those of the node it is sent from. */
  elsewhere?: boolean;
}

export interface Envelope extends Required<Pick<Audience, 'language' | 'exceptUsername'>> {
  kind: 'text' | 'audio' | 'speech';
  /** For speech: the frame (JSON); its audio is `audio`. */
  body: Buffer;
  audio?: Buffer;
  /** The room offset of a logged frame (a message or a later change to one). */
  offset?: number;
  /** A versioned frame's audience (kind 0x05 only). */
  fromVersion?: number;
  belowVersion?: number;
  /** A frame for the other nodes' members: the node it came from. */
  from?: string;
}

const isVersioned = (audience: Audience) =>
  audience.fromVersion !== undefined || audience.belowVersion !== undefined;

function encode(kind: number, body: Buffer, audience: Audience, offset?: number, from = ''): Buffer {
  const language = Buffer.from(audience.language ?? '');
  const except = Buffer.from(audience.exceptUsername ?? '');
  const sender = Buffer.from(from);
  if (language.length > 255 || except.length > 255 || sender.length > 255)
    throw new Error('Envelope header too long.');
  const parts: Buffer[] = [Buffer.of(kind, language.length), language, Buffer.of(except.length), except];
  if (kind === VERSIONED_TEXT || kind === ELSEWHERE_TEXT)
    parts.push(Buffer.of(audience.fromVersion ?? 0, audience.belowVersion ?? ANY_VERSION));
  if (kind === ELSEWHERE_TEXT) parts.push(Buffer.of(sender.length), sender);
  if (offset !== undefined) {
    const bytes = Buffer.alloc(OFFSET_BYTES);
    bytes.writeUIntBE(offset, 0, OFFSET_BYTES);
    parts.push(bytes);
  }
  parts.push(body);
  return Buffer.concat(parts);
}

/** The offset of a frame that carries one (stored messages and the changes logged after them). */
export function offsetOf(frame: ServerFrame): number | undefined {
  const offset = (frame as { offset?: unknown }).offset;
  return frame.type !== 'system' && typeof offset === 'number' ? offset : undefined;
}

/** `nodeId`: the sending node's, which an audience `elsewhere` leaves out (an unlogged frame's only). */
export function encodeText(frame: ServerFrame, audience: Audience = {}, nodeId?: string): Buffer {
  const offset = offsetOf(frame);
  const body = Buffer.from(JSON.stringify(frame));
  if (offset !== undefined) return encode(LOGGED_TEXT, body, audience, offset);
  if (audience.elsewhere && nodeId !== undefined)
    return encode(ELSEWHERE_TEXT, body, audience, undefined, nodeId);
  return encode(isVersioned(audience) ? VERSIONED_TEXT : TEXT, body, audience);
}

export const encodeAudio = (wav: Uint8Array, audience: Audience) => encode(AUDIO, Buffer.from(wav), audience);

/** A `speech` frame and its audio, delivered together (the frame, then the audio at once after it). */
export function encodeSpeech(frame: ServerFrame, ogg: Uint8Array, audience: Audience): Buffer {
  const json = Buffer.from(JSON.stringify(frame));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length, 0);
  return encode(SPEECH, Buffer.concat([length, json, ogg]), audience);
}

export const encodeHello = (nodeId: string) => Buffer.concat([Buffer.of(HELLO), Buffer.from(nodeId)]);

/** The id of the node whose hello this is; undefined for every other envelope. */
export const helloFrom = (payload: Buffer): string | undefined =>
  payload[0] === HELLO ? payload.subarray(1).toString() : undefined;

export const encodeRenamed = () => Buffer.of(RENAMED);

export const isRenamed = (payload: Buffer): boolean => payload.length === 1 && payload[0] === RENAMED;

/** Whether the envelope is a frame stored at a room offset (a message or a later change to one). */
export const isLoggedEnvelope = (payload: Buffer): boolean => payload[0] === LOGGED_TEXT;

const KINDS: Record<number, Envelope['kind']> = {
  [TEXT]: 'text',
  [LOGGED_TEXT]: 'text',
  [AUDIO]: 'audio',
  [SPEECH]: 'speech',
  [VERSIONED_TEXT]: 'text',
  [ELSEWHERE_TEXT]: 'text',
};

/** The bytes that follow the header's except username: an offset, a version range, a sender, or none. */
function extraBytes(payload: Buffer, at: number): number {
  const kind = payload[0];
  if (kind === ELSEWHERE_TEXT) return 3 + (payload[at + 2] ?? payload.length);
  return kind === LOGGED_TEXT ? OFFSET_BYTES : kind === VERSIONED_TEXT ? 2 : 0;
}

export function decodeEnvelope(payload: Buffer): Envelope | undefined {
  const logged = payload[0] === LOGGED_TEXT;
  const kind = KINDS[payload[0] ?? 0];
  const languageLength = payload[1];
  if (!kind || languageLength === undefined) return undefined;
  const languageEnd = 2 + languageLength;
  const exceptLength = payload[languageEnd];
  if (exceptLength === undefined) return undefined;
  const exceptEnd = languageEnd + 1 + exceptLength;
  const bodyStart = exceptEnd + extraBytes(payload, exceptEnd);
  if (bodyStart > payload.length) return undefined;
  const envelope: Envelope = {
    kind,
    language: payload.subarray(2, languageEnd).toString(),
    exceptUsername: payload.subarray(languageEnd + 1, exceptEnd).toString(),
    body: payload.subarray(bodyStart),
  };
  if (logged) envelope.offset = payload.readUIntBE(exceptEnd, OFFSET_BYTES);
  if (payload[0] === ELSEWHERE_TEXT) envelope.from = payload.subarray(exceptEnd + 3, bodyStart).toString();
  if (payload[0] === VERSIONED_TEXT || payload[0] === ELSEWHERE_TEXT) {
    envelope.fromVersion = payload[exceptEnd]!;
    envelope.belowVersion = payload[exceptEnd + 1]!;
  }
  if (kind === 'speech') {
    const { body } = envelope;
    if (body.length < 4 || 4 + body.readUInt32BE(0) > body.length) return undefined;
    const jsonEnd = 4 + body.readUInt32BE(0);
    envelope.body = body.subarray(4, jsonEnd);
    envelope.audio = body.subarray(jsonEnd);
  }
  return envelope;
}

/** Whether a member with this username, language and protocol version is in the envelope's audience. */
export function isAudience(
  envelope: Envelope,
  username: string,
  language: string,
  version?: number,
): boolean {
  if (envelope.language && envelope.language !== language) return false;
  if (version !== undefined && !withinVersions(envelope, version)) return false;
  return !envelope.exceptUsername || envelope.exceptUsername !== username;
}

function withinVersions(envelope: Envelope, version: number): boolean {
  return version >= (envelope.fromVersion ?? 0) && version < (envelope.belowVersion ?? ANY_VERSION);
}

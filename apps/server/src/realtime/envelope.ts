import type { ServerFrame } from '@xtalk/protocol';

/*
 * What travels on a room's bus channel. A frame is serialised once per room, here, not once per listener:
 * every node passes the same bytes to each of its sockets.
 *   [kind][u8 n][language: n bytes][u8 m][except username: m bytes][body]
 * kind 0x01: body is a JSON frame, sent as text; 0x02: body is WAV, sent as binary. An empty language
 * means every listener; `except` skips that user's connections (their own JOIN, their own audio).
 */
const TEXT = 0x01;
const AUDIO = 0x02;

export interface Audience {
  /** Only connections listening in this language. */
  language?: string;
  /** Not this user's connections. */
  exceptUsername?: string;
}

export interface Envelope extends Required<Audience> {
  kind: 'text' | 'audio';
  body: Buffer;
}

function encode(kind: number, body: Buffer, audience: Audience): Buffer {
  const language = Buffer.from(audience.language ?? '');
  const except = Buffer.from(audience.exceptUsername ?? '');
  if (language.length > 255 || except.length > 255) throw new Error('Envelope header too long.');
  return Buffer.concat([Buffer.of(kind, language.length), language, Buffer.of(except.length), except, body]);
}

export const encodeText = (frame: ServerFrame, audience: Audience = {}) =>
  encode(TEXT, Buffer.from(JSON.stringify(frame)), audience);

export const encodeAudio = (wav: Uint8Array, audience: Audience) => encode(AUDIO, Buffer.from(wav), audience);

export function decodeEnvelope(payload: Buffer): Envelope | undefined {
  const kind = payload[0] === TEXT ? 'text' : payload[0] === AUDIO ? 'audio' : undefined;
  const languageLength = payload[1];
  if (!kind || languageLength === undefined) return undefined;
  const languageEnd = 2 + languageLength;
  const exceptLength = payload[languageEnd];
  if (exceptLength === undefined) return undefined;
  const exceptEnd = languageEnd + 1 + exceptLength;
  if (exceptEnd > payload.length) return undefined;
  return {
    kind,
    language: payload.subarray(2, languageEnd).toString(),
    exceptUsername: payload.subarray(languageEnd + 1, exceptEnd).toString(),
    body: payload.subarray(exceptEnd),
  };
}

/** Whether a member with this username and language is in the envelope's audience. */
export function isAudience(envelope: Envelope, username: string, language: string): boolean {
  if (envelope.language && envelope.language !== language) return false;
  return !envelope.exceptUsername || envelope.exceptUsername !== username;
}

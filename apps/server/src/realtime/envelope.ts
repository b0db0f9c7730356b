import type { ServerFrame } from '@xtalk/protocol';

/*
 * What travels on a room's bus channel. A frame is serialised once per room, here, not once per listener:
 * every node passes the same bytes to each of its sockets.
 *   [0x01][JSON of the frame]                                     -> every connection in the room
 *   [0x02][u8 len][language][u8 len][except username][WAV bytes]  -> connections listening in `language`
 */
const TEXT = 0x01;
const AUDIO = 0x02;

export type Envelope =
  { kind: 'text'; json: Buffer } | { kind: 'audio'; language: string; exceptUsername: string; wav: Buffer };

export function encodeText(frame: ServerFrame): Buffer {
  const json = Buffer.from(JSON.stringify(frame));
  return Buffer.concat([Buffer.of(TEXT), json]);
}

export function encodeAudio(language: string, exceptUsername: string, wav: Uint8Array): Buffer {
  const lang = Buffer.from(language);
  const except = Buffer.from(exceptUsername);
  if (lang.length > 255 || except.length > 255) throw new Error('Audio envelope header too long.');
  return Buffer.concat([
    Buffer.of(AUDIO, lang.length),
    lang,
    Buffer.of(except.length),
    except,
    Buffer.from(wav),
  ]);
}

export function decodeEnvelope(payload: Buffer): Envelope | undefined {
  if (payload[0] === TEXT) return { kind: 'text', json: payload.subarray(1) };
  if (payload[0] === AUDIO && payload.length >= 3) {
    const langEnd = 2 + payload[1]!;
    const exceptLength = payload[langEnd];
    if (exceptLength === undefined) return undefined;
    const exceptEnd = langEnd + 1 + exceptLength;
    return {
      kind: 'audio',
      language: payload.subarray(2, langEnd).toString(),
      exceptUsername: payload.subarray(langEnd + 1, exceptEnd).toString(),
      wav: payload.subarray(exceptEnd),
    };
  }
  return undefined;
}

import {
  EDITS_PROTOCOL_VERSION,
  type MessageEditedFrame,
  type MessageFrame,
  type ServerFrame,
} from '@xtalk/protocol';

/*
 * What a client of an older protocol version is sent in place of a frame it cannot parse (the additive
 * rule: a newer server keeps serving older clients; docs/decisions/0130-corrections.md). Below version 3
 * a correction (messageEdited) goes out as the `message` frame it became: same id, the new text, no
 * translations yet; the new translations follow as for any message.
 */

/**
 * A frame's `type` key with its value: in JSON text it can only appear unescaped as a key (inside a string
 * value its quotes would be escaped), wherever the key sits (frames read back from jsonb are reordered).
 */
const EDITED_MARK = Buffer.from('"type":"messageEdited"');

export function frameForVersion(frame: ServerFrame, version: number): ServerFrame {
  if (version >= EDITS_PROTOCOL_VERSION || frame.type !== 'messageEdited') return frame;
  return editAsMessage(frame);
}

/** The same for a frame already serialised (the hub's fan-out); untouched unless it must change. */
export function jsonForVersion(json: Buffer, version: number): Buffer {
  if (version >= EDITS_PROTOCOL_VERSION || !json.includes(EDITED_MARK)) return json;
  const frame = JSON.parse(json.toString()) as ServerFrame;
  return Buffer.from(JSON.stringify(frameForVersion(frame, version)));
}

function editAsMessage(edit: MessageEditedFrame): MessageFrame {
  return {
    type: 'message',
    id: edit.id,
    username: edit.username ?? '',
    ...(edit.displayUsername ? { displayUsername: edit.displayUsername } : {}),
    message: edit.message,
    language: edit.language ?? 'en',
    timestamp: edit.id,
    translations: {},
    isTutorial: false,
    ...(edit.offset !== undefined ? { offset: edit.offset } : {}),
  };
}

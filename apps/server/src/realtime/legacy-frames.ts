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
 * translations yet; the new translations follow as for any message. Live captions and the translation
 * chunks of a clip still being spoken (originalTimestamp 0, docs/decisions/0120-streaming-voice.md) have
 * no older form: such a client is not sent them, and gets the clip's message and translations as before.
 */

/**
 * A frame's `type` key with its value: in JSON text it can only appear unescaped as a key (inside a string
 * value its quotes would be escaped), wherever the key sits (frames read back from jsonb are reordered).
 */
const EDITED_MARK = Buffer.from('"type":"messageEdited"');
const CAPTION_MARK = Buffer.from('"type":"captionPartial"');
/** A chunk of a clip's sentence, before its message exists (a JSON number has no leading zero). */
const CLIP_CHUNK_MARKS = ['"originalTimestamp":0,', '"originalTimestamp":0}'].map((mark) =>
  Buffer.from(mark),
);

const isClipChunk = (frame: ServerFrame) =>
  frame.type === 'translationChunk' && frame.originalTimestamp === 0 && frame.clipId !== undefined;

/** The frame as a client of `version` is sent it; undefined: not sent to that client at all. */
export function frameForVersion(frame: ServerFrame, version: number): ServerFrame | undefined {
  if (version >= EDITS_PROTOCOL_VERSION) return frame;
  if (frame.type === 'messageEdited') return editAsMessage(frame);
  if (frame.type === 'captionPartial' || isClipChunk(frame)) return undefined;
  return frame;
}

/** The same for a frame already serialised (the hub's fan-out); untouched unless it must change. */
export function jsonForVersion(json: Buffer, version: number): Buffer | undefined {
  if (version >= EDITS_PROTOCOL_VERSION) return json;
  const marked =
    json.includes(EDITED_MARK) ||
    json.includes(CAPTION_MARK) ||
    CLIP_CHUNK_MARKS.some((m) => json.includes(m));
  if (!marked) return json;
  const frame = frameForVersion(JSON.parse(json.toString()) as ServerFrame, version);
  return frame ? Buffer.from(JSON.stringify(frame)) : undefined;
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

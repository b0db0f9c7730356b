import {
  EDITS_PROTOCOL_VERSION,
  type MessageEditedFrame,
  type MessageFrame,
  type ServerFrame,
  type SystemFrame,
} from '@xtalk/protocol';

/*
 * What a client of an older protocol version is sent in place of a frame it cannot parse (the additive
 * rule: a newer server keeps serving older clients; docs/decisions/0130-corrections.md). Below version 3
 * a correction (messageEdited) goes out as the `message` frame it became: same id, the new text, no
 * translations yet; the new translations follow as for any message. Live captions and the translation
 * chunks of a clip still being spoken (originalTimestamp 0, docs/decisions/0120-streaming-voice.md) have
 * no older form: such a client is not sent them, and gets the clip's message and translations as before.
 * A coalesced JOIN/LEAVE listing several people (`usernames`, docs/decisions/0110) goes to it one person
 * per frame, as before, leaving out the client's own user (it was never told of its own arrival).
 */

/**
 * A frame's `type` key with its value: in JSON text it can only appear unescaped as a key (inside a string
 * value its quotes would be escaped), wherever the key sits (frames read back from jsonb are reordered).
 */
const EDITED_MARK = Buffer.from('"type":"messageEdited"');
const CAPTION_MARK = Buffer.from('"type":"captionPartial"');
const PRESENCE_LIST_MARK = Buffer.from('"usernames":');
/** A chunk of a clip's sentence, before its message exists (a JSON number has no leading zero). */
const CLIP_CHUNK_MARKS = ['"originalTimestamp":0,', '"originalTimestamp":0}'].map((mark) =>
  Buffer.from(mark),
);

/** A serialised frame holding none of these is sent to an older client as it is. */
const LEGACY_MARKS = [EDITED_MARK, CAPTION_MARK, PRESENCE_LIST_MARK, ...CLIP_CHUNK_MARKS];

const isClipChunk = (frame: ServerFrame) =>
  frame.type === 'translationChunk' && frame.originalTimestamp === 0 && frame.clipId !== undefined;

/** The frames a client of `version` (signed in as `self`) is sent in place of `frame`; [] for none. */
export function framesForVersion(frame: ServerFrame, version: number, self?: string): ServerFrame[] {
  if (version >= EDITS_PROTOCOL_VERSION) return [frame];
  if (frame.type === 'messageEdited') return [editAsMessage(frame)];
  if (frame.type === 'captionPartial' || isClipChunk(frame)) return [];
  if (frame.type === 'system' && frame.usernames) return oneByOne(frame, self);
  return [frame];
}

/**
 * The last frame checked for marks and the verdict: the hub hands every socket of a room the same Buffer
 * one after another, so a room frame is searched once per fan-out, not once per older client (five
 * buffer searches per delivery were an eighth of the fan-out's CPU with a room of protocol-2 clients).
 * Frames are never changed after they are serialised, so the Buffer's identity stands for its bytes.
 */
let lastChecked: Buffer | undefined;
let lastNeedsChange = false;

function needsChange(json: Buffer): boolean {
  if (json !== lastChecked) {
    lastChecked = json;
    lastNeedsChange = LEGACY_MARKS.some((mark) => json.includes(mark));
  }
  return lastNeedsChange;
}

/** The same for a frame already serialised (the hub's fan-out); untouched unless it must change. */
export function jsonForVersion(json: Buffer, version: number, self?: string): Buffer[] {
  if (version >= EDITS_PROTOCOL_VERSION || !needsChange(json)) return [json];
  const frames = framesForVersion(JSON.parse(json.toString()) as ServerFrame, version, self);
  return frames.map((frame) => Buffer.from(JSON.stringify(frame)));
}

function oneByOne(frame: SystemFrame, self: string | undefined): SystemFrame[] {
  const { usernames = [], displayUsernames, username: _first, displayUsername: _shown, ...rest } = frame;
  return usernames.flatMap((username, index) => {
    if (username === self) return [];
    const displayUsername = displayUsernames?.[index];
    return [{ ...rest, username, ...(displayUsername ? { displayUsername } : {}) }];
  });
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

import {
  EDITS_PROTOCOL_VERSION,
  GLOSSARY_PROTOCOL_VERSION,
  RETRANSLATE_PROTOCOL_VERSION,
  TRANSLATION_FAILED_PROTOCOL_VERSION,
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
 * A coalesced JOIN/LEAVE listing several people (`usernames`, decision 0110) goes to it one person
 * per frame, as before, leaving out the client's own user (it was never told of its own arrival).
 * Below version 4 a client is not sent translationFailed (decision 0126): it has no older form, and
 * such a client keeps the failed translation's chunks as it always did.
 * Below version 6 a client is not sent glossaryUpdated (decision 0156): it has no glossary to refresh.
 * Below version 7 a message comes without `failedTranslations` (decision 0186): such a client has
 * no mark to show and cannot ask for them again, so the field would only be bytes it drops.
 */

/**
 * A frame's `type` key with its value: in JSON text it can only appear unescaped as a key (inside a string
 * value its quotes would be escaped), wherever the key sits (frames read back from jsonb are reordered).
 */
const EDITED_MARK = Buffer.from('"type":"messageEdited"');
const CAPTION_MARK = Buffer.from('"type":"captionPartial"');
const PRESENCE_LIST_MARK = Buffer.from('"usernames":');
const FAILED_MARK = Buffer.from('"type":"translationFailed"');
const GLOSSARY_MARK = Buffer.from('"type":"glossaryUpdated"');
/** A message's failed languages (protocol 7): a key, so unescaped only where it is one. */
const FAILED_LANGUAGES_MARK = Buffer.from('"failedTranslations":');
/** A chunk of a clip's sentence, before its message exists (a JSON number has no leading zero). */
const CLIP_CHUNK_MARKS = ['"originalTimestamp":0,', '"originalTimestamp":0}'].map((mark) =>
  Buffer.from(mark),
);

/** A serialised frame holding none of these is sent to an older client as it is. */
const LEGACY_MARKS = [
  EDITED_MARK,
  CAPTION_MARK,
  PRESENCE_LIST_MARK,
  FAILED_MARK,
  GLOSSARY_MARK,
  ...CLIP_CHUNK_MARKS,
];

const isClipChunk = (frame: ServerFrame) =>
  frame.type === 'translationChunk' && frame.originalTimestamp === 0 && frame.clipId !== undefined;

/** A message without its failed languages, for a client that cannot ask for them again. */
function withoutFailedLanguages(frame: ServerFrame): ServerFrame {
  if (frame.type !== 'message' || frame.failedTranslations === undefined) return frame;
  const { failedTranslations: _failed, ...rest } = frame;
  return rest;
}

/**
 * A frame made for one connection (an answer, a replayed message), in the form its version reads: a stored
 * message answering a resend carries failed languages an older client is not sent.
 */
export function answerForVersion(frame: ServerFrame, version: number): ServerFrame {
  return version >= RETRANSLATE_PROTOCOL_VERSION ? frame : withoutFailedLanguages(frame);
}

/** The frames a client of `version` (signed in as `self`) is sent in place of `frame`; [] for none. */
export function framesForVersion(served: ServerFrame, version: number, self?: string): ServerFrame[] {
  if (version >= RETRANSLATE_PROTOCOL_VERSION) return [served];
  const frame = withoutFailedLanguages(served);
  if (version >= GLOSSARY_PROTOCOL_VERSION) return [frame];
  if (frame.type === 'glossaryUpdated') return [];
  if (version >= TRANSLATION_FAILED_PROTOCOL_VERSION) return [frame];
  if (frame.type === 'translationFailed') return [];
  if (version >= EDITS_PROTOCOL_VERSION) return [frame];
  if (frame.type === 'messageEdited') return [editAsMessage(frame)];
  if (frame.type === 'captionPartial' || isClipChunk(frame)) return [];
  if (frame.type === 'system' && frame.usernames) return oneByOne(frame, self);
  return [frame];
}

/**
 * An older client's form of a serialised frame, worked out once per frame (the hub hands every member
 * the same Buffer): a coalesced JOIN of a filling room goes to each legacy socket as one frame per
 * person, and parsing and re-serialising it per socket was most of a room fill's CPU.
 * `usernames[i]` is the person of `frames[i]` when the frames are a presence list split one by one.
 */
interface LegacyForm {
  frames: Buffer[];
  usernames?: string[];
}
const legacyForms = new WeakMap<Buffer, LegacyForm>();

function legacyFormOf(json: Buffer, version: number): LegacyForm {
  const cached = legacyForms.get(json);
  if (cached) return cached;
  let form: LegacyForm = { frames: [json] };
  if (LEGACY_MARKS.some((mark) => json.includes(mark))) {
    const frame = JSON.parse(json.toString()) as ServerFrame;
    const frames = framesForVersion(frame, version);
    form = { frames: frames.map((each) => Buffer.from(JSON.stringify(each))) };
    if (frame.type === 'system' && frame.usernames) {
      form.usernames = frames.map((each) => (each as SystemFrame).username ?? '');
    }
  }
  legacyForms.set(json, form);
  return form;
}

/**
 * Whether a client of this version reads every frame as the hub serialised it. The fan-out asks this per
 * delivery, so that the current clients' path makes no array: a `[json]` per delivery was a large share
 * of the garbage a big room's delivery left (sampled under the fan-out bench).
 */
export const readsFramesAsServed = (version: number): boolean => version >= RETRANSLATE_PROTOCOL_VERSION;

/**
 * A serialised message without its failed languages. Only stored messages carry them (a replay, a
 * resync), never a live fan-out, so this parse stays off the hub's hot path.
 */
function jsonWithoutFailedLanguages(json: Buffer): Buffer {
  if (!json.includes(FAILED_LANGUAGES_MARK)) return json;
  const frame = JSON.parse(json.toString()) as ServerFrame;
  const plain = withoutFailedLanguages(frame);
  return plain === frame ? json : Buffer.from(JSON.stringify(plain));
}

/** The same for a frame already serialised (the hub's fan-out); untouched unless it must change. */
export function jsonForVersion(served: Buffer, version: number, self?: string): Buffer[] {
  if (readsFramesAsServed(version)) return [served];
  const json = jsonWithoutFailedLanguages(served);
  if (version >= GLOSSARY_PROTOCOL_VERSION) return [json];
  if (json.includes(GLOSSARY_MARK)) return [];
  if (version >= TRANSLATION_FAILED_PROTOCOL_VERSION) return [json];
  if (version >= EDITS_PROTOCOL_VERSION) return json.includes(FAILED_MARK) ? [] : [json];
  // every version below 3 gets the same form (framesForVersion), so one cache serves them all
  const { frames, usernames } = legacyFormOf(json, version);
  if (!usernames || self === undefined || !usernames.includes(self)) return frames;
  return frames.filter((_, index) => usernames[index] !== self);
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

import { z } from 'zod';
import { memberListFrame } from './member-list-frames.js';
import { noServerVoiceFrame, speechFrame } from './speech-frames.js';
import { languageSchema } from './language.js';
import { offsetField } from './offset-field.js';
import {
  translationChunkFrame,
  translationCompleteFrame,
  translationFailedFrame,
} from './translation-frames.js';

/*
 * Every WebSocket frame the server sends, keyed on `type`; the client's
 * are in client-frames.ts. JSON text frames both ways; binary frames carry audio (client -> server: an
 * Ogg/Opus clip; server -> client: a WAV translation).
 */

/** A chat message as stored and sent (`Message`). `id` is the server timestamp in ms. */
export const messageFrame = z.object({
  type: z.literal('message'),
  id: z.number().int(),
  username: z.string(),
  displayUsername: z.string().optional(),
  message: z.string(),
  language: languageSchema,
  timestamp: z.number().int(),
  /** Complete translations by language code. */
  translations: z.record(z.string(), z.string()),
  isTutorial: z.boolean(),
  note: z.string().optional(),
  /** The room offset at which the message was stored. */
  offset: offsetField,
  /** The author's client message id, echoed to everyone (it is not secret). */
  clientId: z.string().optional(),
  /** Set once the author corrected the text (server time in ms of the last edit; protocol 3). */
  editedAt: z.number().int().optional(),
  /** A streamed voice clip's id (protocol 3): this message replaces that clip's live caption. */
  clipId: z.string().optional(),
  /**
   * The languages its translation failed into for good (protocol 7, additive: an older client's parser
   * drops it); a later translation into one of them removes it.
   */
  failedTranslations: z.array(languageSchema).optional(),
  /**
   * The author deleted their account (additive: an older client's parser drops it): the message stays,
   * its username is empty and it is shown as DELETED_USER_NAME, with no avatar and no link back.
   */
  authorDeleted: z.literal(true).optional(),
});
export type MessageFrame = z.infer<typeof messageFrame>;

/** RESYNC: a resume was too far behind (or of another epoch); the recent window follows. */
/** MEMBERS (protocol 7): a hot room's member count, sent instead of every JOIN and LEAVE name. */
export const SYSTEM_EVENTS = ['JOIN', 'LEAVE', 'READY', 'BALANCE', 'RESYNC', 'MEMBERS'] as const;
export type SystemEvent = (typeof SYSTEM_EVENTS)[number];

export const systemFrame = z.object({
  type: z.literal('system'),
  message: z.enum(SYSTEM_EVENTS),
  timestamp: z.number().int(),
  username: z.string().optional(),
  displayUsername: z.string().optional(),
  /**
   * JOIN and LEAVE of several people at once (the server coalesces a burst into one frame): everyone, in
   * arrival order, the receiver possibly among them. `username` / `displayUsername` then name the first,
   * for clients that read one name only.
   */
  usernames: z.array(z.string()).optional(),
  displayUsernames: z.array(z.string()).optional(),
  /**
   * Protocol 7. JOIN, LEAVE and MEMBERS: how many people are in the room after the change, on every node.
   * MEMBERS also says how many came (`joined`) and went (`left`) since the last one, and names the
   * latest few who came in `usernames` / `displayUsernames` (never more than a handful).
   */
  members: z.number().int().min(0).optional(),
  joined: z.number().int().min(0).optional(),
  left: z.number().int().min(0).optional(),
  /**
   * BALANCE only: the user's credit balance, sent to all of that user's connections whenever it changes
   * (and once after READY for a signed-in user).
   */
  balance: z.object({ free: z.number(), premium: z.number() }).optional(),
  /** READY only: the room joined and the protocol version the server speaks. */
  roomId: z.string().optional(),
  protocolVersion: z.number().int().optional(),
  /** READY only (protocol 3): the languages the room translates into; a listener may pick any of them. */
  languages: z.array(languageSchema).optional(),
  /** READY only (protocol 3): how long after sending its author may correct a message; 0: never. */
  editWindowSeconds: z.number().int().min(0).optional(),
  /**
   * READY only (protocol 7): this client must send a clientId with every chat frame; one without is
   * refused with an error frame and not stored. Absent: a clientId is optional, as before.
   */
  clientIdRequired: z.boolean().optional(),
  /** READY and RESYNC: the room's epoch and its latest offset. */
  epoch: z.string().optional(),
  offset: z.number().int().min(0).optional(),
});
export type SystemFrame = z.infer<typeof systemFrame>;

export const noteCompleteFrame = z.object({
  type: z.literal('noteComplete'),
  originalTimestamp: z.number().int(),
  note: z.string(),
  offset: offsetField,
});
export type NoteCompleteFrame = z.infer<typeof noteCompleteFrame>;

export const usernameUpdateFrame = z.object({
  type: z.literal('usernameUpdate'),
  username: z.string(),
  displayUsername: z.string(),
  oldDisplayUsername: z.string(),
  offset: offsetField,
  /**
   * The author deleted their account (additive, as on a message: an older client ignores a rename with
   * no name): every name is empty and `messageIds` are the ids of their latest messages in the room, shown
   * as DELETED_USER_NAME from now on.
   */
  authorDeleted: z.literal(true).optional(),
  messageIds: z.array(z.number().int()).optional(),
});
export type UsernameUpdateFrame = z.infer<typeof usernameUpdateFrame>;

/**
 * A message's text was corrected by its author (protocol 3). Its translations and hint are void: new
 * translationChunk / translationComplete / noteComplete frames for the same id follow. The author's names
 * and the message's language ride along so a client that holds no copy of the message can still show it.
 */
export const messageEditedFrame = z.object({
  type: z.literal('messageEdited'),
  id: z.number().int(),
  message: z.string(),
  editedAt: z.number().int(),
  username: z.string().optional(),
  displayUsername: z.string().optional(),
  language: languageSchema.optional(),
  offset: offsetField,
});
export type MessageEditedFrame = z.infer<typeof messageEditedFrame>;

/**
 * Protocol 3: what a streamed voice clip says so far, to the room while the speaker still speaks. Each
 * frame replaces the previous one for the clip (the whole text, not a delta); provisional, never stored.
 * The clip's `message` (same clipId) replaces it; an empty `text` withdraws it (the clip was dropped).
 */
export const captionPartialFrame = z.object({
  type: z.literal('captionPartial'),
  clipId: z.string(),
  username: z.string(),
  displayUsername: z.string(),
  language: languageSchema,
  text: z.string(),
});
export type CaptionPartialFrame = z.infer<typeof captionPartialFrame>;

/** Protocol 6: the room's glossary changed (to `version`); clients that show it fetch it again. */
export const glossaryUpdatedFrame = z.object({
  type: z.literal('glossaryUpdated'),
  room: z.string(),
  version: z.number().int().min(0),
});
export type GlossaryUpdatedFrame = z.infer<typeof glossaryUpdatedFrame>;

/** Protocol 6: a piece of the summary asked for with summarize, to the asking connection alone. */
export const summaryChunkFrame = z.object({
  type: z.literal('summaryChunk'),
  requestId: z.string(),
  chunk: z.string(),
});
export type SummaryChunkFrame = z.infer<typeof summaryChunkFrame>;

/** Protocol 6: the whole summary; `from` and `to` are the ids of the first and last message it covers. */
export const summaryCompleteFrame = z.object({
  type: z.literal('summaryComplete'),
  requestId: z.string(),
  text: z.string(),
  from: z.number().int(),
  to: z.number().int(),
});
export type SummaryCompleteFrame = z.infer<typeof summaryCompleteFrame>;

export const ERROR_CODES = [
  /** Not JSON, or JSON that fails the frame schema. */
  'bad_frame',
  /** A chat text over the limit or empty. */
  'message_invalid',
  /** A frame for another room than the session's. */
  'wrong_room',
  /** A frame claiming another identity than the token's. */
  'forbidden',
  /** A frame that needs setUsername first. */
  'not_joined',
  /** A language the server does not translate. */
  'unsupported_language',
  /** Too many frames too fast. */
  'rate_limited',
  /** Binary audio that is not accepted (not Ogg/Opus, corrupt, too large or too long). */
  'audio_rejected',
  /** A voice clip without speech (silence, noise, or only what speech models invent on silence). */
  'no_speech',
  /** A voice clip that could not be transcribed (engine unavailable or failing, no credits). */
  'transcription_failed',
  /** Something failed on the server; the frame may be retried. */
  'internal',
  /** Something this server depends on is down for a moment (e.g. the bus); retry shortly. */
  'unavailable',
  /** editMessage for a message that is not in this room (protocol 3). */
  'message_not_found',
  /** editMessage for someone else's message: only the author may correct it (protocol 3). */
  'edit_forbidden',
  /** editMessage after the edit window closed (protocol 3). */
  'edit_window_closed',
  /** A notice about the room's engines (translation unavailable, loading...). Not a failure of the frame. */
  'notice',
  /** summarize (protocol 6): the asker's credits cannot pay for the summary. */
  'insufficient_credits',
  /** summarize (protocol 6): fewer messages to summarise than a summary is worth. */
  'too_few_messages',
  /** summarize (protocol 6): this server's engine does not write summaries. */
  'engine_unsupported',
  /** retranslate (protocol 7): the message has no failed translation to redo. */
  'not_failed',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * What a `notice` is about, so that a client can word it in its interface language (protocol 3, additive:
 * `message` keeps the server's English for clients that do not read this). Params by kind:
 * - engine_loading: task, percent; engine_ready, engine_unavailable: task;
 * - engine_failed: task, and language (the target's code) for translation and speech;
 * - backlog: none;
 * - translation_paused (to the room): name (the author's), reason;
 * - credits_paused (to the author alone): reason.
 *
 * `task` is an AI_TASKS value; `reason` is a PAUSE_REASONS value.
 */
export const NOTICE_KINDS = [
  'engine_loading',
  'engine_ready',
  'engine_unavailable',
  'engine_failed',
  'backlog',
  'translation_paused',
  'credits_paused',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
/** The AI tasks a notice can be about. */
export const AI_TASKS = ['translation', 'note', 'speech', 'transcription'] as const;
export type AiTaskName = (typeof AI_TASKS)[number];
/** Why an author's messages go untranslated: a guest's daily allowance is used up, or the credits are. */
export const PAUSE_REASONS = ['guest_allowance', 'no_credits'] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

export const noticeDetail = z.object({
  // a string, not an enum: a client keeps working when a newer server sends a kind it does not know
  kind: z.string().max(64),
  params: z.record(z.string(), z.union([z.string().max(200), z.number()])).optional(),
});
export type NoticeDetail = z.infer<typeof noticeDetail>;

export const errorFrame = z.object({
  type: z.literal('error'),
  code: z.enum(ERROR_CODES),
  message: z.string(),
  /** With code `notice`: what it is about, for the client's own words (see NOTICE_KINDS). */
  notice: noticeDetail.optional(),
  /** The refused chat's (or voice clip's) client id, so the sender's outbox can mark that one. */
  clientId: z.string().optional(),
  /** A refused streamed voice clip's id (voiceStart, its pieces, voiceEnd). */
  clipId: z.string().optional(),
  /** A refused or failed summary's request id (protocol 6), when it had one. */
  requestId: z.string().optional(),
});
export type ErrorFrame = z.infer<typeof errorFrame>;

/** The answer to a client's `ping` (protocol 5): the socket is alive both ways. */
export const pongFrame = z.object({ type: z.literal('pong') });
export type PongFrame = z.infer<typeof pongFrame>;

export const serverFrameSchema = z.discriminatedUnion('type', [
  messageFrame,
  systemFrame,
  translationChunkFrame,
  translationCompleteFrame,
  translationFailedFrame,
  noteCompleteFrame,
  usernameUpdateFrame,
  errorFrame,
  messageEditedFrame,
  captionPartialFrame,
  pongFrame,
  glossaryUpdatedFrame,
  summaryChunkFrame,
  summaryCompleteFrame,
  speechFrame,
  noServerVoiceFrame,
  memberListFrame,
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;

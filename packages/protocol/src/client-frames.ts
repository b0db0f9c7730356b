import { z } from 'zod';
import type { ErrorCode } from './frames.js';
import { MEMBER_PAGE_MAX } from './constants.js';
import { languageSchema } from './language.js';
import { chatTextSchema } from './text-rules.js';

/*
 * The frames a client sends, keyed on `type`; the server's are in
 * frames.ts. A module of their own so that the web app, which sends these but never parses them, does not
 * build their schemas when it loads the ones it parses with (the package has no side effects, so an
 * unused module is left out: decision 0085).
 */

const roomField = z.string().min(1).max(32);
const usernameField = z.string().min(1).max(64);
/** A client's own id for one message, so a resend after a drop is stored once (per author). */
const clientIdField = z.string().min(1).max(64);
/** A room's position: its epoch (changes only when its history is reset) and the last offset seen. */
export const resumePositionSchema = z.object({
  epoch: z.string().min(1).max(64),
  offset: z.number().int().min(0),
});
export type ResumePosition = z.infer<typeof resumePositionSchema>;

export const setUsernameFrame = z.object({
  type: z.literal('setUsername'),
  username: usernameField,
  language: languageSchema,
  room: roomField,
  /**
   * The protocol version the client speaks. Clients of version 2 and later always send it; a frame
   * without it is a version-1 client (see docs/decisions/0060-protocol-version-handshake.md).
   */
  protocolVersion: z.number().int().min(0).max(1_000_000).optional(),
  /** On a reconnect: where the client left off; it gets exactly what it missed. */
  resume: resumePositionSchema.optional(),
});

export const chatFrame = z.object({
  type: z.literal('chat'),
  language: languageSchema,
  message: chatTextSchema,
  room: roomField,
  clientId: clientIdField.optional(),
});

export const setLanguageFrame = z.object({
  type: z.literal('setLanguage'),
  language: languageSchema,
  room: roomField,
});

export const updateUsernameFrame = z.object({
  type: z.literal('updateUsername'),
  username: usernameField,
  displayUsername: z.string().min(1).max(64),
});

/** Announces the voice clip that comes next as one binary frame, with its client message id. */
export const voiceClipFrame = z.object({
  type: z.literal('voiceClip'),
  clientId: clientIdField,
});

/**
 * A correction (protocol 3): the author replaces the text of one of their messages, within the server's
 * edit window. Translations, the hint and the spoken audio are made again for the new text.
 */
export const editMessageFrame = z.object({
  type: z.literal('editMessage'),
  id: z.number().int(),
  message: chatTextSchema,
});

/**
 * "Try again" (protocol 7): the author asks for the failed translations of one of their messages in this
 * room to be made again, paid as any translation. `requestId`, the client's id for this ask, makes it paid
 * once however often the frame is sent (docs/decisions/0186-try-again-paid-up-front.md); without it each
 * frame is an ask of its own.
 */
export const retranslateFrame = z.object({
  type: z.literal('retranslate'),
  id: z.number().int(),
  requestId: clientIdField.optional(),
});
export type RetranslateFrame = z.infer<typeof retranslateFrame>;

/** A streamed clip's id: the client's message id for it too (a resent clip is stored once). */
const clipIdField = clientIdField;

/**
 * Streaming voice (protocol 3): opens a clip whose Ogg pages follow as binary frames, each frame the next
 * whole pages of the same Ogg/Opus stream a whole clip is, until `voiceEnd`. One clip at a time per
 * connection; a binary frame while none is open is a whole clip, as before.
 */
export const voiceStartFrame = z.object({
  type: z.literal('voiceStart'),
  clipId: clipIdField,
  language: languageSchema,
  room: roomField,
});

/** The streamed clip is complete: transcribe what is left and post the message. */
export const voiceEndFrame = z.object({
  type: z.literal('voiceEnd'),
  clipId: clipIdField,
});

/**
 * Are you there? (protocol 5) The server answers with `pong`, in any state. A client sends it when it has
 * heard nothing for a while, or when the tab or the network comes back, to find a dead socket.
 */
export const pingFrame = z.object({ type: z.literal('ping') });

/**
 * "Catch me up" (protocol 6): a summary, in `language`, of the room's messages after `since` (a message id,
 * the last one the client saw), of the last 30 minutes and at most the last 200, whichever are fewest.
 * Answered to this connection alone: summaryChunk pieces, then summaryComplete, or an error frame.
 */
export const summarizeFrame = z.object({
  type: z.literal('summarize'),
  room: roomField,
  language: languageSchema,
  since: z.number().int().min(0).optional(),
});

/**
 * Who is in my room? (protocol 9) A page of the room's members, on every node, answered to this connection
 * alone as `memberList`; `cursor` is the one the previous page gave (none: the first page). Only a member
 * joined to the room may ask; a page holds at most `limit` (up to MEMBER_PAGE_MAX) people.
 */
export const membersFrame = z.object({
  type: z.literal('members'),
  room: roomField,
  cursor: z.string().min(1).max(64).optional(),
  limit: z.number().int().min(1).max(MEMBER_PAGE_MAX).optional(),
});

export const clientFrameSchema = z.discriminatedUnion('type', [
  setUsernameFrame,
  chatFrame,
  setLanguageFrame,
  updateUsernameFrame,
  voiceClipFrame,
  editMessageFrame,
  voiceStartFrame,
  voiceEndFrame,
  pingFrame,
  summarizeFrame,
  retranslateFrame,
  membersFrame,
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;
export type SetUsernameFrame = z.infer<typeof setUsernameFrame>;
export type ChatFrame = z.infer<typeof chatFrame>;
export type SetLanguageFrame = z.infer<typeof setLanguageFrame>;
export type UpdateUsernameFrame = z.infer<typeof updateUsernameFrame>;
export type VoiceClipFrame = z.infer<typeof voiceClipFrame>;
export type EditMessageFrame = z.infer<typeof editMessageFrame>;
export type VoiceStartFrame = z.infer<typeof voiceStartFrame>;
export type VoiceEndFrame = z.infer<typeof voiceEndFrame>;
export type SummarizeFrame = z.infer<typeof summarizeFrame>;
export type MembersFrame = z.infer<typeof membersFrame>;

/** Parse a client text frame; returns a readable reason instead of throwing. */
export function parseClientFrame(
  text: string,
): { ok: true; frame: ClientFrame } | { ok: false; code: ErrorCode; message: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, code: 'bad_frame', message: 'Frame is not valid JSON.' };
  }
  const result = clientFrameSchema.safeParse(json);
  if (result.success) return { ok: true, frame: result.data };
  const issue = result.error.issues[0];
  const path = issue?.path.join('.') ?? '';
  const type = (json as { type?: unknown })?.type;
  const isMessageText = path === 'message' && (type === 'chat' || type === 'editMessage');
  return {
    ok: false,
    code: isMessageText ? 'message_invalid' : 'bad_frame',
    message: issue ? `${path ? `${path}: ` : ''}${issue.message}` : 'Invalid frame.',
  };
}

import type { MessageFrame } from '@xtalk/protocol';

/** A message as a client sends it, to be stored. */
export interface NewMessage {
  roomId: string;
  userId: string;
  username: string;
  displayUsername: string;
  language: string;
  text: string;
  /** The author's id for this message: a resend with the same id is the same message. */
  clientId?: string | undefined;
}

/** A stored message, and whether it was already stored before this call (an idempotent resend). */
export interface StoredMessage {
  message: MessageFrame;
  duplicate: boolean;
  /** The room it is stored in (a client id reused in another room finds the first room's message). */
  roomId: string;
}

/** A row of `messages` as the queries select it, and its frame. */
export interface MessageRow {
  id: string | number;
  seq: string | number | null;
  client_id: string | null;
  username: string;
  display_username: string | null;
  language: string;
  text: string;
  translations: Record<string, string> | string;
  note: string | null;
  is_tutorial: boolean;
  edited_at?: string | number | null;
  failed_translations?: string[] | null;
  author_deleted?: boolean | null;
}

export function toFrame(row: MessageRow): MessageFrame {
  const id = Number(row.id);
  const frame: MessageFrame = {
    type: 'message',
    id,
    username: row.username,
    message: row.text,
    language: row.language,
    timestamp: id,
    translations: typeof row.translations === 'string' ? JSON.parse(row.translations) : row.translations,
    isTutorial: row.is_tutorial,
  };
  if (row.display_username) frame.displayUsername = row.display_username;
  if (row.note) frame.note = row.note;
  if (row.seq !== null && row.seq !== undefined) frame.offset = Number(row.seq);
  if (row.client_id) frame.clientId = row.client_id;
  if (row.edited_at !== null && row.edited_at !== undefined) frame.editedAt = Number(row.edited_at);
  if (row.failed_translations?.length) frame.failedTranslations = row.failed_translations;
  if (row.author_deleted) frame.authorDeleted = true;
  return frame;
}

export const MESSAGE_COLUMNS =
  'id, seq, client_id, username, display_username, language, text, translations, note, is_tutorial, edited_at, failed_translations, author_deleted';

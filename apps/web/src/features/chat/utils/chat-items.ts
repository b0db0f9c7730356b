import {
  DELETED_USER_NAME,
  generatedDisplayName,
  type MessageFrame,
  type ServerFrame,
} from '@xtalk/protocol';

/*
 * The room's chat log: what it holds (messages, JOIN/LEAVE events, a hot room's counts, live captions),
 * kept oldest first; the list renders it newest first. Messages are keyed by id (= server timestamp),
 * which is also the `originalTimestamp` that translation and note frames refer to.
 */

export interface ChatMessage {
  kind: 'message';
  id: number;
  username: string;
  displayUsername: string;
  message: string;
  language: string;
  timestamp: number;
  /** Complete translations by language. */
  translations: Record<string, string>;
  /** Translations still streaming in, by language; replaced once complete. */
  partial: Record<string, string>;
  isTutorial: boolean;
  note?: string | undefined;
  /** When its author last corrected it (server ms); shown as an 'edited' mark. */
  editedAt?: number | undefined;
  /** The languages its translation failed into for good (a lasting mark; cleared by a later one). */
  failed?: string[] | undefined;
  /** Its author deleted their account: shown as a deleted user, with no name, avatar or link back. */
  authorDeleted?: true | undefined;
}

export interface ChatSystemEvent {
  kind: 'system';
  id: string;
  event: 'JOIN' | 'LEAVE';
  username: string;
  displayUsername: string;
  timestamp: number;
}

/**
 * A hot room's count (protocol 7 MEMBERS): how many are in the room, how many came since the last one and
 * the latest few of them by name; the server names no one else there.
 */
export interface ChatMembers {
  kind: 'members';
  id: string;
  usernames: string[];
  displayUsernames: string[];
  joined: number;
  members: number;
  timestamp: number;
}

export type ChatItem = ChatMessage | ChatSystemEvent | ChatMembers;

/** A streamed voice clip still being spoken (protocol 3): provisional, replaced by its message. */
export interface LiveCaption {
  clipId: string;
  username: string;
  displayUsername: string;
  language: string;
  text: string;
  /** Translations of its committed sentences so far, by language. */
  translations: Record<string, string>;
}

export interface ChatState {
  items: ChatItem[];
  /** Live captions by clip id (absent until the first one). */
  captions?: Record<string, LiveCaption>;
}

export type ChatAction = { type: 'reset' } | { type: 'frame'; frame: ServerFrame };

export const initialChatState: ChatState = { items: [] };

/** A message frame as it is held in the log, nothing streamed in yet. */
export function fromFrame(frame: MessageFrame): ChatMessage {
  return {
    kind: 'message',
    id: frame.id,
    username: frame.username,
    // where no translation of the interface reaches (a transcript's fixed words), the English name stands
    displayUsername: frame.authorDeleted
      ? DELETED_USER_NAME.en
      : (frame.displayUsername ?? generatedDisplayName(frame.username)),
    message: frame.message,
    language: frame.language,
    timestamp: frame.timestamp,
    translations: { ...frame.translations },
    partial: {},
    isTutorial: frame.isTutorial,
    note: frame.note,
    editedAt: frame.editedAt,
    failed: frame.failedTranslations,
    authorDeleted: frame.authorDeleted,
  };
}

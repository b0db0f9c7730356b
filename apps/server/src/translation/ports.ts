import type { MessageFrame, ServerFrame } from '@xtalk/protocol';
import type { GlossaryTerm } from '../ai/index.js';
import type { SpokenSentence } from '../delivery/index.js';

export type { SpokenSentence };

/*
 * What the translation service needs from the rest of the server. The rooms service wires real
 * implementations in; tests use in-memory ones.
 */

export interface RoomOutput {
  /**
   * Fan a frame out to every connection in the room (all nodes), except `exceptUsername`'s if given; with
   * `language` only to its listeners, with `fromVersion` only to clients of that protocol version or later.
   */
  broadcast(roomId: string, frame: ServerFrame, audience?: FrameAudience): Promise<void>;
  /** Deliver WAV bytes to the room's connections whose language is `language`, except `exceptUsername`'s. */
  sendAudio(roomId: string, language: string, wav: Uint8Array, exceptUsername: string): Promise<void>;
  /**
   * Deliver one spoken sentence (Ogg/Opus) as a `speech` frame and its binary frame to the room's
   * connections whose language is `language`, except `exceptUsername`'s.
   */
  sendSpeech(
    roomId: string,
    language: string,
    speech: SpokenSentence,
    ogg: Uint8Array,
    exceptUsername: string,
  ): Promise<void>;
}

/** Who in a room a frame is for (everyone when empty). */
export interface FrameAudience {
  exceptUsername?: string;
  language?: string;
  fromVersion?: number;
}

/** Which sentence of which translation a `speech` frame carries (its `bytes` are the audio's length). */
export interface TranslationStore {
  /**
   * Stores (and logs) a complete translation; resolves to its room offset when the store keeps one.
   * With `sourceText`, only while the message's text is still that (a correction supersedes the work).
   */
  saveTranslation(
    roomId: string,
    messageId: number,
    language: string,
    text: string,
    sourceText?: string,
    /** The revision of `sourceText` (its `editedAt`, 0 for the first text), which the logged frame names. */
    revision?: number,
  ): Promise<number | void>;
  saveNote(roomId: string, messageId: number, note: string, sourceText?: string): Promise<number | void>;
  /**
   * Logs that a translation failed for good (the room log's translationFailed, for clients that resume);
   * resolves to its offset when the store keeps one. With `sourceText`, as for saveTranslation.
   */
  saveTranslationFailure(
    roomId: string,
    messageId: number,
    language: string,
    sourceText?: string,
  ): Promise<number | void>;
  /** Up to `limit` messages of the room before `beforeId`, oldest first. */
  recentMessages(roomId: string, beforeId: number, limit: number): Promise<MessageFrame[]>;
}

/** Who listens in which language in a room, on every node (presence, decision 0137). */
export interface Listeners {
  /** Whether anyone in the room listens in `language` now. */
  listens(roomId: string, language: string): Promise<boolean>;
}

/** Frames for one user's connections, wherever they are (all nodes, all rooms). */
export interface UserOutput {
  sendToUser(userId: string, frame: ServerFrame): Promise<void>;
}

export interface Usage {
  userId: string;
  username: string;
  roomId: string;
  task: 'translation' | 'note' | 'speech' | 'transcription' | 'summary';
  characters?: number;
  audioSeconds?: number;
  /** The message the work is for, and the target language (a reference in the ledger). */
  messageId?: number;
  language?: string;
  /**
   * The charge's idempotency key: a call made again under the same key is paid once (the work of one
   * "Try again" request). Without it every call is paid anew.
   */
  key?: string;
}

/** A charge already made; undone when the work it paid for fails. */
export interface Charge {
  refund(): Promise<void>;
}

export interface Meter {
  /**
   * Called before every provider call; throw InsufficientCreditsError to refuse it. What it returns is
   * refunded if the call then fails (nothing is charged for failed work).
   */
  charge(usage: Usage): Promise<Charge | void>;
  /**
   * Whether the author could pay for all of `usages` now, without paying: rejects with the
   * InsufficientCreditsError `charge` would throw. A meter without it lets everything through.
   */
  affords?(usages: readonly Usage[]): Promise<void>;
}

/** A room's glossary as one translation sees it. */
export interface Glossary {
  /** Exactly the terms that occur in `text`, rendered for `target`, longest first; [] for none. */
  termsFor(text: string, target: string): GlossaryTerm[];
}

/** The room glossaries (the glossary module's), read when a message's work starts: a change applies at once. */
export interface GlossaryPort {
  forRoom(roomId: string): Promise<Glossary>;
}

import type { MessageFrame, ServerFrame } from '@xtalk/protocol';

/*
 * What the translation service needs from the rest of the server. The rooms service wires real
 * implementations in; tests use in-memory ones.
 */

export interface RoomOutput {
  /** Fan a frame out to every connection in the room (all nodes). */
  broadcast(roomId: string, frame: ServerFrame): Promise<void>;
  /** Deliver WAV bytes to the room's connections whose language is `language`, except `exceptUsername`'s. */
  sendAudio(roomId: string, language: string, wav: Uint8Array, exceptUsername: string): Promise<void>;
}

export interface TranslationStore {
  /** Stores (and logs) a complete translation; resolves to its room offset when the store keeps one. */
  saveTranslation(roomId: string, messageId: number, language: string, text: string): Promise<number | void>;
  saveNote(roomId: string, messageId: number, note: string): Promise<number | void>;
  /** Up to `limit` messages of the room before `beforeId`, oldest first. */
  recentMessages(roomId: string, beforeId: number, limit: number): Promise<MessageFrame[]>;
}

export interface Usage {
  userId: string;
  username: string;
  roomId: string;
  task: 'translation' | 'note' | 'speech' | 'transcription';
  characters?: number;
  audioSeconds?: number;
}

export interface Meter {
  /** Called before every provider call; throw InsufficientCreditsError to refuse it. */
  charge(usage: Usage): Promise<void>;
}

import type { MessageFrame, ServerFrame } from '@xtalk/protocol';
import type {
  Charge,
  FrameAudience,
  Meter,
  RoomOutput,
  SpokenSentence,
  TranslationStore,
  Usage,
  UserOutput,
} from '../ports.js';

/*
 * In-memory implementations of the ports, recording every call: for tests and the bench. Not used by the
 * server itself.
 */

export interface SentAudio {
  roomId: string;
  language: string;
  wav: Uint8Array;
  exceptUsername: string;
}

export interface SentSpeech extends SpokenSentence {
  roomId: string;
  language: string;
  ogg: Uint8Array;
  exceptUsername: string;
}

export class MemoryRoomOutput implements RoomOutput, UserOutput {
  /** Spoken sentences (protocol 6), in the order they were sent. */
  readonly speech: SentSpeech[] = [];
  readonly frames: Array<{
    roomId: string;
    frame: ServerFrame;
    exceptUsername?: string;
    audience?: FrameAudience;
  }> = [];
  readonly audio: SentAudio[] = [];
  /** Frames sent to one user's connections (UserOutput). */
  readonly userFrames: Array<{ userId: string; frame: ServerFrame }> = [];

  async broadcast(roomId: string, frame: ServerFrame, audience?: FrameAudience): Promise<void> {
    this.frames.push({
      roomId,
      frame,
      ...(audience?.exceptUsername ? { exceptUsername: audience.exceptUsername } : {}),
      ...(audience?.language || audience?.fromVersion ? { audience } : {}),
    });
  }

  async sendToUser(userId: string, frame: ServerFrame): Promise<void> {
    this.userFrames.push({ userId, frame });
  }

  async sendAudio(roomId: string, language: string, wav: Uint8Array, exceptUsername: string): Promise<void> {
    this.audio.push({ roomId, language, wav, exceptUsername });
  }

  async sendSpeech(
    roomId: string,
    language: string,
    speech: SpokenSentence,
    ogg: Uint8Array,
    exceptUsername: string,
  ): Promise<void> {
    this.speech.push({ roomId, language, ...speech, ogg, exceptUsername });
  }

  framesOf<T extends ServerFrame['type']>(
    type: T,
    roomId?: string,
  ): Array<Extract<ServerFrame, { type: T }>> {
    return this.frames
      .filter((entry) => entry.frame.type === type && (roomId === undefined || entry.roomId === roomId))
      .map((entry) => entry.frame as Extract<ServerFrame, { type: T }>);
  }
}

export class MemoryTranslationStore implements TranslationStore {
  readonly messages = new Map<string, MessageFrame[]>();
  readonly translations: Array<{ roomId: string; messageId: number; language: string; text: string }> = [];
  readonly notes: Array<{ roomId: string; messageId: number; note: string }> = [];

  add(roomId: string, message: MessageFrame): void {
    const list = this.messages.get(roomId) ?? [];
    list.push(message);
    this.messages.set(roomId, list);
  }

  /** Replaces a stored message's text as a correction does (translations and note void). */
  edit(roomId: string, messageId: number, text: string): MessageFrame {
    const message = this.messages.get(roomId)?.find((m) => m.id === messageId);
    if (!message) throw new Error(`no message ${messageId} in ${roomId}`);
    message.message = text;
    message.translations = {};
    delete message.note;
    return { ...message };
  }

  /** Work made from a text the message no longer has (`sourceText`) is refused, as the database does. */
  private stale(roomId: string, messageId: number, sourceText: string | undefined): boolean {
    const message = this.messages.get(roomId)?.find((m) => m.id === messageId);
    return sourceText !== undefined && message !== undefined && message.message !== sourceText;
  }

  async saveTranslation(
    roomId: string,
    messageId: number,
    language: string,
    text: string,
    sourceText?: string,
  ): Promise<void> {
    if (this.stale(roomId, messageId, sourceText)) return;
    this.translations.push({ roomId, messageId, language, text });
    const message = this.messages.get(roomId)?.find((m) => m.id === messageId);
    if (message) message.translations = { ...message.translations, [language]: text };
  }

  async saveNote(roomId: string, messageId: number, note: string, sourceText?: string): Promise<void> {
    if (this.stale(roomId, messageId, sourceText)) return;
    this.notes.push({ roomId, messageId, note });
    const message = this.messages.get(roomId)?.find((m) => m.id === messageId);
    if (message) message.note = note;
  }

  readonly failures: Array<{ roomId: string; messageId: number; language: string }> = [];

  async saveTranslationFailure(
    roomId: string,
    messageId: number,
    language: string,
    sourceText?: string,
  ): Promise<void> {
    if (this.stale(roomId, messageId, sourceText)) return;
    this.failures.push({ roomId, messageId, language });
  }

  async recentMessages(roomId: string, beforeId: number, limit: number): Promise<MessageFrame[]> {
    const before = (this.messages.get(roomId) ?? []).filter((m) => m.id < beforeId);
    return before.slice(Math.max(0, before.length - limit));
  }
}

export class MemoryMeter implements Meter {
  readonly charges: Usage[] = [];
  /** Charges undone because the work failed. */
  readonly refunds: Usage[] = [];
  /** Set to make charge throw (e.g. new InsufficientCreditsError()). */
  refuseWith: ((usage: Usage) => Error | undefined) | undefined;

  async charge(usage: Usage): Promise<Charge> {
    const refusal = this.refuseWith?.(usage);
    if (refusal) throw refusal;
    this.charges.push(usage);
    return { refund: async () => void this.refunds.push(usage) };
  }
}

import type { MessageFrame } from '@xtalk/protocol';
import type { Clock } from '../clock.js';
import type { Db } from '../store/index.js';
import { insertMessageBatch, isUniqueViolation } from './message-batch.js';
import {
  MESSAGE_COLUMNS,
  toFrame,
  type MessageRow,
  type NewMessage,
  type StoredMessage,
} from './message-row.js';

export type { NewMessage, StoredMessage } from './message-row.js';

/**
 * A room's messages: storing them (idempotent by client id) and reading them back. Part of the rooms repo;
 * only the rooms module uses it.
 */
export function createMessagesRepo(db: Db, clock: Clock) {
  /** The message an author already stored under this client id, if any. */
  async function findByClientId(userId: string, clientId: string): Promise<StoredMessage | undefined> {
    const { rows } = await db.query<MessageRow & { room_id: string }>(
      `select room_id, ${MESSAGE_COLUMNS} from messages where user_id = $1 and client_id = $2`,
      [userId, clientId],
    );
    const row = rows[0];
    return row ? { message: toFrame(row), duplicate: true, roomId: row.room_id } : undefined;
  }

  /**
   * Stores a message and returns it with its id (the server time in ms, bumped past the room's last id)
   * and its offset (the room's next seq), both taken under the room row's lock, so ids are unique and
   * increasing and offsets gap-free within a room even across nodes. A message whose (author, clientId)
   * is already stored is not stored again: the stored one comes back as a duplicate.
   */
  async function insertMessage(message: NewMessage): Promise<StoredMessage> {
    const clientId = message.clientId ?? null;
    try {
      // One statement, so one round trip and its own transaction: the update takes the room row's lock
      // and the insert uses the id and seq it returned. A known client id bumps nothing (no gap).
      const { rows } = await db.query<MessageRow>(
        `with bumped as (
           update rooms set last_message_id = greatest(last_message_id + 1, $2), last_seq = last_seq + 1,
             updated_at = now()
           where id = $1
             and ($8::text is null or not exists (select 1 from messages where user_id = $3 and client_id = $8))
           returning last_message_id, last_seq
         )
         insert into messages (room_id, id, seq, user_id, username, display_username, language, text, client_id)
         select $1, last_message_id, last_seq, $3, $4, $5, $6, $7, $8 from bumped
         returning ${MESSAGE_COLUMNS}`,
        [
          message.roomId,
          clock.now(),
          message.userId,
          message.username,
          message.displayUsername,
          message.language,
          message.text,
          clientId,
        ],
      );
      if (rows[0]) return { message: toFrame(rows[0]), duplicate: false, roomId: message.roomId };
    } catch (error) {
      // the same client id sent twice at the same moment (two sockets): the other one won
      if (!clientId || !isUniqueViolation(error)) throw error;
    }
    const existing = clientId ? await findByClientId(message.userId, clientId) : undefined;
    if (existing) return existing;
    throw new Error(`Room ${message.roomId} does not exist.`);
  }

  return {
    insertMessage,

    /** A room's waiting messages stored together (message-batch.ts). */
    insertMessages: (messages: NewMessage[]) => insertMessageBatch(db, clock, messages, insertMessage),

    findByClientId,

    /** The last `limit` messages of a room, oldest first (the replay a joiner gets). */
    async listMessages(roomId: string, limit: number): Promise<MessageFrame[]> {
      const { rows } = await db.query<MessageRow>(
        `select * from (select ${MESSAGE_COLUMNS} from messages where room_id = $1 order by id desc limit $2) recent
         order by id asc`,
        [roomId, limit],
      );
      return rows.map(toFrame);
    },

    /** The last `limit` messages after `afterId`, oldest first (what a summary covers). */
    async messagesAfter(roomId: string, afterId: number, limit: number): Promise<MessageFrame[]> {
      const { rows } = await db.query<MessageRow>(
        `select * from (select ${MESSAGE_COLUMNS} from messages where room_id = $1 and id > $2 order by id desc limit $3) recent
         order by id asc`,
        [roomId, afterId, limit],
      );
      return rows.map(toFrame);
    },

    /** Up to `limit` messages before `beforeId`, oldest first (translation context). */
    async recentMessages(roomId: string, beforeId: number, limit: number): Promise<MessageFrame[]> {
      const { rows } = await db.query<MessageRow>(
        `select * from (select ${MESSAGE_COLUMNS} from messages where room_id = $1 and id < $2 order by id desc limit $3) recent
         order by id asc`,
        [roomId, beforeId, limit],
      );
      return rows.map(toFrame);
    },
  };
}

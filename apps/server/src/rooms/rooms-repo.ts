import { randomBytes } from 'node:crypto';
import type { MessageFrame } from '@xtalk/protocol';
import type { Clock } from '../clock.js';
import type { Db } from '../store/db.js';
import { MESSAGE_COLUMNS, toFrame, type MessageRow } from './message-row.js';
import { loggedChangeSql } from './room-log.js';
import { generateRoomCode } from './room-codes.js';

export interface SessionRow {
  id: string;
  user_id: string;
  room_id: string;
  expires_at: Date;
}

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

const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23505';

/** Rooms, their sessions and their messages. Only the rooms module touches these tables. */
export function createRoomsRepo(db: Db, clock: Clock) {
  /** The message an author already stored under this client id, if any. */
  async function findByClientId(userId: string, clientId: string): Promise<StoredMessage | undefined> {
    const { rows } = await db.query<MessageRow & { room_id: string }>(
      `select room_id, ${MESSAGE_COLUMNS} from messages where user_id = $1 and client_id = $2`,
      [userId, clientId],
    );
    const row = rows[0];
    return row ? { message: toFrame(row), duplicate: true, roomId: row.room_id } : undefined;
  }

  return {
    /** Creates a room with a fresh code; a collision (vanishingly rare) just draws again. */
    async createRoom(createdBy: string): Promise<string> {
      for (let attempt = 0; attempt < 8; attempt++) {
        const code = generateRoomCode();
        const { rows } = await db.query(
          'insert into rooms (id, created_by) values ($1, $2) on conflict (id) do nothing returning id',
          [code, createdBy],
        );
        if (rows.length > 0) return code;
      }
      throw new Error('Could not find a free room code.');
    },

    async roomExists(roomId: string): Promise<boolean> {
      const { rows } = await db.query('select 1 from rooms where id = $1', [roomId]);
      return rows.length > 0;
    },

    async recordMembership(userId: string, roomId: string): Promise<void> {
      await db.query(
        `insert into room_members (user_id, room_id) values ($1, $2)
         on conflict (user_id, room_id) do update set updated_at = now()`,
        [userId, roomId],
      );
    },

    async createSession(userId: string, roomId: string, ttlSeconds: number): Promise<string> {
      const id = randomBytes(18).toString('base64url');
      await db.query('insert into sessions (id, user_id, room_id, expires_at) values ($1, $2, $3, $4)', [
        id,
        userId,
        roomId,
        new Date(clock.now() + ttlSeconds * 1000),
      ]);
      return id;
    },

    /** A session that exists and has not expired. */
    async findSession(sessionId: string): Promise<SessionRow | undefined> {
      const { rows } = await db.query<SessionRow>(
        'select id, user_id, room_id, expires_at from sessions where id = $1 and expires_at > $2',
        [sessionId, new Date(clock.now())],
      );
      return rows[0];
    },

    /**
     * Stores a message and returns it with its id (the server time in ms, bumped past the room's last id)
     * and its offset (the room's next seq), both taken under the room row's lock, so ids are unique and
     * increasing and offsets gap-free within a room even across nodes. A message whose (author, clientId)
     * is already stored is not stored again: the stored one comes back as a duplicate.
     */
    async insertMessage(message: NewMessage): Promise<StoredMessage> {
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
    },

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

    /** Up to `limit` messages before `beforeId`, oldest first (translation context). */
    async recentMessages(roomId: string, beforeId: number, limit: number): Promise<MessageFrame[]> {
      const { rows } = await db.query<MessageRow>(
        `select * from (select ${MESSAGE_COLUMNS} from messages where room_id = $1 and id < $2 order by id desc limit $3) recent
         order by id asc`,
        [roomId, beforeId, limit],
      );
      return rows.map(toFrame);
    },

    /** Stores a complete translation and logs it; returns its offset (undefined: no such message). */
    async saveTranslation(
      roomId: string,
      messageId: number,
      language: string,
      text: string,
    ): Promise<number | undefined> {
      const frame = {
        type: 'translationComplete',
        originalTimestamp: messageId,
        targetLanguage: language,
        fullText: text,
      };
      const { rows } = await db.query<{ seq: string | number }>(
        loggedChangeSql(
          `update messages set translations = translations || jsonb_build_object($3::text, $4::text)
           where room_id = $1 and id = $2 returning 1`,
          5,
        ),
        [roomId, messageId, language, text, JSON.stringify(frame)],
      );
      return rows[0] ? Number(rows[0].seq) : undefined;
    },

    /** Stores a message's note and logs it; returns its offset (undefined: no such message). */
    async saveNote(roomId: string, messageId: number, note: string): Promise<number | undefined> {
      const frame = { type: 'noteComplete', originalTimestamp: messageId, note };
      const { rows } = await db.query<{ seq: string | number }>(
        loggedChangeSql('update messages set note = $3 where room_id = $1 and id = $2 returning 1', 4),
        [roomId, messageId, note, JSON.stringify(frame)],
      );
      return rows[0] ? Number(rows[0].seq) : undefined;
    },

    /**
     * Renames a user's past messages in every room (after a username change) and logs the rename in the
     * room it is announced in; returns its offset there.
     */
    async renameAuthor(
      userId: string,
      username: string,
      displayUsername: string,
      announce?: { roomId: string; oldDisplayUsername: string },
    ): Promise<number | undefined> {
      if (!announce) {
        await db.query('update messages set username = $2, display_username = $3 where user_id = $1', [
          userId,
          username,
          displayUsername,
        ]);
        return undefined;
      }
      const frame = {
        type: 'usernameUpdate',
        username,
        displayUsername,
        oldDisplayUsername: announce.oldDisplayUsername,
      };
      // logged even when the user has no messages yet: the room is told of the new name either way
      const { rows } = await db.query<{ seq: string | number }>(
        loggedChangeSql(
          'update messages set username = $3, display_username = $4 where user_id = $2 returning 1',
          5,
          { always: true },
        ),
        [announce.roomId, userId, username, displayUsername, JSON.stringify(frame)],
      );
      return rows[0] ? Number(rows[0].seq) : undefined;
    },
  };
}
export type RoomsRepo = ReturnType<typeof createRoomsRepo>;

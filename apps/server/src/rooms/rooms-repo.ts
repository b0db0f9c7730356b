import { randomBytes } from 'node:crypto';
import type { MessageFrame } from '@xtalk/protocol';
import type { Clock } from '../clock.js';
import type { Db } from '../store/db.js';
import { generateRoomCode } from './room-codes.js';

interface MessageRow {
  id: string | number;
  username: string;
  display_username: string | null;
  language: string;
  text: string;
  translations: Record<string, string> | string;
  note: string | null;
  is_tutorial: boolean;
}

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
}

function toFrame(row: MessageRow): MessageFrame {
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
  return frame;
}

const MESSAGE_COLUMNS = 'id, username, display_username, language, text, translations, note, is_tutorial';

/** Rooms, their sessions and their messages. Only the rooms module touches these tables. */
export function createRoomsRepo(db: Db, clock: Clock) {
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
     * Stores a message and returns it with its id: the server time in ms, bumped past the room's last id
     * under the room row's lock, so ids are unique and increasing within a room even across nodes.
     */
    async insertMessage(message: NewMessage): Promise<MessageFrame> {
      // One statement, so one round trip and its own transaction: the update takes the room row's lock
      // and the insert uses the id it returned.
      const { rows } = await db.query<MessageRow>(
        `with bumped as (
           update rooms set last_message_id = greatest(last_message_id + 1, $2), updated_at = now()
           where id = $1 returning last_message_id
         )
         insert into messages (room_id, id, user_id, username, display_username, language, text)
         select $1, last_message_id, $3, $4, $5, $6, $7 from bumped
         returning ${MESSAGE_COLUMNS}`,
        [
          message.roomId,
          clock.now(),
          message.userId,
          message.username,
          message.displayUsername,
          message.language,
          message.text,
        ],
      );
      if (!rows[0]) throw new Error(`Room ${message.roomId} does not exist.`);
      return toFrame(rows[0]);
    },

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

    async saveTranslation(roomId: string, messageId: number, language: string, text: string): Promise<void> {
      await db.query(
        `update messages set translations = translations || jsonb_build_object($3::text, $4::text)
         where room_id = $1 and id = $2`,
        [roomId, messageId, language, text],
      );
    },

    async saveNote(roomId: string, messageId: number, note: string): Promise<void> {
      await db.query('update messages set note = $3 where room_id = $1 and id = $2', [
        roomId,
        messageId,
        note,
      ]);
    },

    /** Renames a user's past messages in every room (after a username change). */
    async renameAuthor(userId: string, username: string, displayUsername: string): Promise<void> {
      await db.query('update messages set username = $2, display_username = $3 where user_id = $1', [
        userId,
        username,
        displayUsername,
      ]);
    },
  };
}
export type RoomsRepo = ReturnType<typeof createRoomsRepo>;

import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import { liveUserSelect, userColumnsOf, type UserRow } from '../auth/users-repo.js';
import type { Db } from '../store/db.js';
import { createMessageChanges } from './message-changes.js';
import { createMessageEdits } from './message-edits.js';
import { createMessageRetranslation } from './message-retranslation.js';
import { createMessagesRepo } from './messages-repo.js';
import { generateRoomCode } from './room-codes.js';
import { createRoomMembers } from './room-members.js';

export type { NewMessage, StoredMessage } from './messages-repo.js';

/** The edit window when none is configured (config's EDIT_WINDOW_SECONDS has the same default). */
export const DEFAULT_EDIT_WINDOW_SECONDS = 600;

export interface SessionRow {
  id: string;
  user_id: string;
  room_id: string;
  expires_at: Date;
}

/** Rooms, their sessions and their messages. Only the rooms module touches these tables. */
export function createRoomsRepo(db: Db, clock: Clock, options: { editWindowSeconds?: number } = {}) {
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

    async createSession(userId: string, roomId: string, ttlSeconds: number): Promise<SessionRow> {
      const session: SessionRow = {
        id: randomBytes(18).toString('base64url'),
        user_id: userId,
        room_id: roomId,
        expires_at: new Date(clock.now() + ttlSeconds * 1000),
      };
      await db.query('insert into sessions (id, user_id, room_id, expires_at) values ($1, $2, $3, $4)', [
        session.id,
        session.user_id,
        session.room_id,
        session.expires_at,
      ]);
      return session;
    },

    /**
     * What a socket opens with, in one statement (a connect's statements are most of its CPU):
     * the session, if it exists and has not expired, and the user of the token, if that user still exists
     * (not merged into another). Either may be missing; whose session it is, the caller checks.
     */
    async findSessionAndUser(
      sessionId: string,
      userId: string,
    ): Promise<{ session: SessionRow | undefined; user: UserRow | undefined }> {
      const { rows } = await db.query<
        { [Column in keyof UserRow]: UserRow[Column] | null } & {
          session_id: string | null;
          session_user_id: string;
          session_room_id: string;
          session_expires_at: Date;
        }
      >(
        `select ${userColumnsOf('u')}, s.id as session_id, s.user_id as session_user_id,
           s.room_id as session_room_id, s.expires_at as session_expires_at
         from (select 1) as one
         left join (${liveUserSelect('$2')}) u on true
         left join sessions s on s.id = $1 and s.expires_at > $3`,
        [sessionId, userId, new Date(clock.now())],
      );
      // one row always (the outer joins to one): a missing user or session is a row of nulls there
      const { session_id, session_user_id, session_room_id, session_expires_at, ...user } = rows[0]!;
      return {
        session: session_id
          ? {
              id: session_id,
              user_id: session_user_id,
              room_id: session_room_id,
              expires_at: session_expires_at,
            }
          : undefined,
        user: user.id ? (user as UserRow) : undefined,
      };
    },

    ...createRoomMembers(db),
    ...createMessagesRepo(db, clock),
    ...createMessageChanges(db),
    ...createMessageEdits(db, clock, () => options.editWindowSeconds ?? DEFAULT_EDIT_WINDOW_SECONDS),
    ...createMessageRetranslation(db),
  };
}
export type RoomsRepo = ReturnType<typeof createRoomsRepo>;

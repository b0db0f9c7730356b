import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Seals } from '../accounts/index.js';
import type { Db } from '../store/index.js';
import { createMessageChanges } from './message-changes.js';
import { createMessageEdits } from './message-edits.js';
import { createMessageRetranslation } from './message-retranslation.js';
import { createMessagesRepo } from './messages-repo.js';
import { generateRoomCode } from './room-codes.js';
import { createRoomMembers } from './room-members.js';
import type { RoomPosition } from './room-log.js';
import { sealedSession, sessionOfSealedId, type SessionRow } from './session-ids.js';

export type { NewMessage, StoredMessage } from './messages-repo.js';

/** The edit window when none is configured (config's EDIT_WINDOW_SECONDS has the same default). */
export const DEFAULT_EDIT_WINDOW_SECONDS = 600;

export type { SessionRow } from './session-ids.js';

/** Rooms, their sessions and their messages. Only the rooms module touches these tables. */
export function createRoomsRepo(
  db: Db,
  clock: Clock,
  /** `seals`: session ids carry their own proof (session-ids.ts); without, they are random. */
  options: { editWindowSeconds?: number; seals?: Seals } = {},
) {
  const { seals } = options;
  /**
   * Creates a room with a fresh code, and the position its log starts at (what a join hands its socket,
   * decision 0265); a collision (vanishingly rare) just draws again.
   */
  async function openRoom(createdBy: string): Promise<{ id: string; position: RoomPosition }> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const code = generateRoomCode();
      const { rows } = await db.query<{ epoch: string }>(
        'insert into rooms (id, created_by) values ($1, $2) on conflict (id) do nothing returning epoch',
        [code, createdBy],
      );
      if (rows[0]) return { id: code, position: { epoch: rows[0].epoch, offset: 0 } };
    }
    throw new Error('Could not find a free room code.');
  }

  return {
    /** Creates a room with a fresh code (openRoom without its position). */
    async createRoom(createdBy: string): Promise<string> {
      return (await openRoom(createdBy)).id;
    },
    openRoom,

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
      const expiresAt = new Date(clock.now() + ttlSeconds * 1000);
      const session: SessionRow = (seals && sealedSession(seals, userId, roomId, expiresAt)) ?? {
        id: randomBytes(18).toString('base64url'),
        user_id: userId,
        room_id: roomId,
        expires_at: expiresAt,
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
     * The unexpired session a sealed id names for `userId`, read from the id alone (no statement);
     * undefined for any other id, which findSession reads.
     */
    sealedSession(sessionId: string, userId: string): SessionRow | undefined {
      return seals && sessionOfSealedId(seals, sessionId, userId, clock.now());
    },

    /** The session of this id, if it exists and has not expired; whose it is, the caller checks. */
    async findSession(sessionId: string): Promise<SessionRow | undefined> {
      const { rows } = await db.query<SessionRow>(
        'select id, user_id, room_id, expires_at from sessions where id = $1 and expires_at > $2',
        [sessionId, new Date(clock.now())],
      );
      return rows[0];
    },

    ...createRoomMembers(db),
    ...createMessagesRepo(db, clock),
    ...createMessageChanges(db),
    ...createMessageEdits(db, clock, () => options.editWindowSeconds ?? DEFAULT_EDIT_WINDOW_SECONDS),
    ...createMessageRetranslation(db),
  };
}
export type RoomsRepo = ReturnType<typeof createRoomsRepo>;

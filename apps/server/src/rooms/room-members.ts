import type { Db } from '../store/index.js';

/** Who is a member of a room: everyone who joined it (POST /xtalk records it). */
export function createRoomMembers(db: Db) {
  return {
    async isMember(userId: string, roomId: string): Promise<boolean> {
      const { rows } = await db.query('select 1 from room_members where user_id = $1 and room_id = $2', [
        userId,
        roomId,
      ]);
      return rows.length > 0;
    },

    /** The room's members, most recently joined first, at most `limit`. */
    async memberIds(roomId: string, limit: number): Promise<string[]> {
      const { rows } = await db.query<{ user_id: string }>(
        'select user_id from room_members where room_id = $1 order by updated_at desc limit $2',
        [roomId, limit],
      );
      return rows.map((row) => row.user_id);
    },
  };
}

import type { Queryable } from '../store/index.js';

/*
 * What the rooms module holds of one user, for the merge of two players (accounts/links/player-links.ts):
 * accounts owns the users, rooms owns memberships, messages and sessions, and both parts must commit together.
 */

/** The rooms a user has joined (a user who joined none has no room history to keep). */
export async function countJoinedRooms(q: Pick<Queryable, 'query'>, userId: string): Promise<number> {
  const { rows } = await q.query<{ rooms: number }>(
    'select count(*)::int as rooms from room_members where user_id = $1',
    [userId],
  );
  return rows[0]?.rooms ?? 0;
}

/**
 * Moves `fromId`'s memberships, messages and sessions to `intoId` inside the caller's transaction `tx` (one
 * connection on PGlite: the merge's other statements run on the same one). A room both had joined keeps
 * the earliest join and the latest visit.
 */
export async function moveRoomData(tx: Queryable, fromId: string, intoId: string): Promise<void> {
  await tx.query(
    `insert into room_members (user_id, room_id, added_at, updated_at)
       select $2, room_id, added_at, updated_at from room_members where user_id = $1
     on conflict (user_id, room_id) do update set
       added_at = least(room_members.added_at, excluded.added_at),
       updated_at = greatest(room_members.updated_at, excluded.updated_at)`,
    [fromId, intoId],
  );
  await tx.query('delete from room_members where user_id = $1', [fromId]);
  await tx.query('update messages set user_id = $2 where user_id = $1', [fromId, intoId]);
  await tx.query('update sessions set user_id = $2 where user_id = $1', [fromId, intoId]);
}

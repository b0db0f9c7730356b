import type { Queryable } from '../store/index.js';

/*
 * What the rooms module holds of a user, for auth's removal of idle guests. Both run inside
 * auth's transaction (`tx`), so a guest is removed whole or not at all, and PGlite's one connection is
 * never asked for a second transaction inside the first.
 */

/** Those of `userIds` who joined a room or held a session at or after `since`. */
export async function activeRoomUsers(tx: Queryable, userIds: string[], since: Date): Promise<Set<string>> {
  const { rows } = await tx.query<{ user_id: string }>(
    `select user_id from room_members where user_id = any($1::text[]) and updated_at >= $2
     union
     select user_id from sessions where user_id = any($1::text[]) and expires_at >= $2`,
    [userIds, since],
  );
  return new Set(rows.map((row) => row.user_id));
}

/**
 * Removes the users' memberships and sessions. Their messages stay in the rooms' history, no longer
 * linked to a user: the record belongs to everyone in the room, and the offsets of a room stay gap-free.
 */
export async function forgetRoomUsers(tx: Queryable, userIds: string[]): Promise<void> {
  await tx.query('update messages set user_id = null where user_id = any($1::text[])', [userIds]);
  await tx.query('update rooms set created_by = null where created_by = any($1::text[])', [userIds]);
  await tx.query('delete from room_members where user_id = any($1::text[])', [userIds]);
  await tx.query('delete from sessions where user_id = any($1::text[])', [userIds]);
}

import { randomBytes } from 'node:crypto';
import type { Db } from '../../store/index.js';
import type { UserRooms } from '../user-rooms.js';
import type { UserRow } from '../users/users-repo.js';

/** What a signed-in account's username is until its owner picks one (see users-repo). */
const UNCHOSEN_MEMBER_NAME = /^u-[0-9a-f]{12}$/;

/**
 * Moves everything of player `fromId` (a guest who signed in, or an account just made by an OIDC
 * link) into `intoId`: its links, room history, messages and open sessions. An account whose owner
 * never chose a username takes the one the guest was seen with, so the room keeps knowing them. The
 * old row stays (rows elsewhere point at it) but is marked merged, so its tokens sign no one in.
 * One transaction: the rooms module's part runs on it too, so the merge commits whole or not at all.
 * Returns whether it merged (false when either player is gone or merged already).
 */
export async function absorbPlayer(
  db: Db,
  rooms: UserRooms,
  fromId: string,
  intoId: string,
): Promise<boolean> {
  if (fromId === intoId) return false;
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<UserRow & { merged_into: string | null }>(
      `select id, provider, username, display_name, merged_into from users where id = any($1) for update`,
      [[fromId, intoId]],
    );
    const from = rows.find((row) => row.id === fromId);
    const into = rows.find((row) => row.id === intoId);
    if (!from || !into || from.merged_into || into.merged_into) return false;
    await rooms.moveUser(tx, fromId, intoId);
    await tx.query('update player_links set user_id = $2 where user_id = $1', [fromId, intoId]);
    const adopt = UNCHOSEN_MEMBER_NAME.test(into.username) && into.display_name === null;
    await tx.query(`update users set merged_into = $2, username = $3, updated_at = now() where id = $1`, [
      fromId,
      intoId,
      `m-${randomBytes(8).toString('hex')}`,
    ]);
    // a signed-in player carried into a guest makes the guest signed in
    if (from.provider !== 'guest') {
      await tx.query(`update users set provider = 'ggl' where id = $1`, [intoId]);
    }
    if (adopt) {
      await tx.query('update users set username = $2, display_name = $3, updated_at = now() where id = $1', [
        intoId,
        from.username,
        from.display_name,
      ]);
    }
    return true;
  });
}

import type { Db } from '../../store/index.js';
import type { UserRooms } from '../user-rooms.js';

const GUEST_BATCH = 200;

/**
 * Removes guests idle since `idleSince` (created before it, no room joined and no session since) with
 * their sign-in links, memberships and sessions; their messages stay in the rooms, unlinked. A guest's
 * token expires long before (GUEST_RETENTION_SECONDS >= SESSION_TTL_SECONDS), so none can come back. A
 * guest who linked a sign-in is no longer a guest (provider ggl) and is never removed here. Credits rows
 * are left as they are: the ledger is append-only and a guest's holds no bought credits.
 * Returns how many were removed. A table added later that references users must be handled here.
 */
export async function deleteIdleGuests(db: Db, rooms: UserRooms, idleSince: Date): Promise<number> {
  let removed = 0;
  // walk the candidates by id, so active guests met on the way are passed over, not met again
  let after = '';
  for (;;) {
    const { rows } = await db.query<{ id: string }>(
      `select id from users where provider = 'guest' and created_at < $1 and id > $2 order by id
       limit ${GUEST_BATCH}`,
      [idleSince, after],
    );
    if (rows.length === 0) return removed;
    after = rows[rows.length - 1]!.id;
    const candidates = rows.map((row) => row.id);
    removed += await db.transaction(async (tx) => {
      const active = await rooms.activeUsers(tx, candidates, idleSince);
      const idle = candidates.filter((id) => !active.has(id));
      if (idle.length === 0) return 0;
      await rooms.forgetUsers(tx, idle);
      await tx.query('delete from player_links where user_id = any($1::text[])', [idle]);
      await tx.query('delete from sign_in_sessions where user_id = any($1::text[])', [idle]);
      await tx.query(
        'update email_accounts set pending_user_id = null where pending_user_id = any($1::text[])',
        [idle],
      );
      await tx.query('delete from email_accounts where user_id = any($1::text[]) and verified_at is null', [
        idle,
      ]);
      const deleted = await tx.query<{ id: string }>(
        "delete from users where provider = 'guest' and id = any($1::text[]) returning id",
        [idle],
      );
      return deleted.rows.length;
    });
    if (rows.length < GUEST_BATCH) return removed;
  }
}

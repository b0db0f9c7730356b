import type { Clock } from '../clock.js';
import type { Db } from './db.js';

/**
 * Tables whose rows end at `expires_at`. Every reader refuses an expired row by itself, so removing them
 * only frees space: it runs now and then in the background, not on the request paths that write them.
 */
const EXPIRING_TABLES = ['sessions', 'botcheck_used', 'auth_flows', 'auth_codes'] as const;

export async function deleteExpiredRows(db: Db, now: Date): Promise<void> {
  for (const table of EXPIRING_TABLES) await db.query(`delete from ${table} where expires_at < $1`, [now]);
}

const GUEST_BATCH = 200;

/**
 * Removes guests idle since `idleSince` (created before it, no room joined and no session since) with
 * their memberships, sessions and player data. Their messages stay in the rooms' history, no longer linked
 * to a user (the room's record belongs to everyone in it; a guest's name was never personal). A guest's
 * token expires long before (GUEST_RETENTION_SECONDS >= SESSION_TTL_SECONDS), so none can come back.
 * Returns how many were removed. A table added later that references users must cascade or be added here.
 */
export async function deleteIdleGuests(db: Db, idleSince: Date): Promise<number> {
  let removed = 0;
  for (;;) {
    const { rows } = await db.query<{ id: string }>(
      `select u.id from users u
       where u.provider = 'guest' and u.created_at < $1
         and not exists (select 1 from room_members m where m.user_id = u.id and m.updated_at >= $1)
         and not exists (select 1 from sessions s where s.user_id = u.id and s.expires_at >= $1)
       limit ${GUEST_BATCH}`,
      [idleSince],
    );
    if (rows.length === 0) return removed;
    const ids = rows.map((row) => row.id);
    await db.transaction(async (tx) => {
      await tx.query('update messages set user_id = null where user_id = any($1::text[])', [ids]);
      await tx.query('update rooms set created_by = null where created_by = any($1::text[])', [ids]);
      await tx.query('delete from room_members where user_id = any($1::text[])', [ids]);
      await tx.query('delete from sessions where user_id = any($1::text[])', [ids]);
      await tx.query("delete from users where provider = 'guest' and id = any($1::text[])", [ids]);
    });
    removed += ids.length;
    if (rows.length < GUEST_BATCH) return removed;
  }
}

/**
 * Sweeps at once and then every `intervalMs`; `stop` waits for a sweep under way. With
 * `guestRetentionMs`, idle guests go too.
 */
export function startExpirySweeper(
  db: Db,
  clock: Clock,
  intervalMs: number,
  onError: (error: unknown) => void,
  guestRetentionMs?: number,
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = running
      .then(async () => {
        await deleteExpiredRows(db, new Date(clock.now()));
        if (guestRetentionMs) await deleteIdleGuests(db, new Date(clock.now() - guestRetentionMs));
      })
      .catch(onError);
  };
  sweep();
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

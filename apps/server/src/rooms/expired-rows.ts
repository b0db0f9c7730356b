import type { Db } from '../store/db.js';

/**
 * Room sessions end at `expires_at`; joining refuses an expired one by itself, so removing them only frees
 * space (the store's sweeper calls this now and then).
 */
export async function deleteExpiredSessions(db: Db, now: Date): Promise<void> {
  await db.query('delete from sessions where expires_at < $1', [now]);
}

import type { Db } from '../store/index.js';

/**
 * Room sessions end at `expires_at`; joining refuses an expired one by itself, so removing them only frees
 * space (the store's sweeper calls this now and then).
 */
export async function deleteExpiredSessions(db: Db, now: Date): Promise<void> {
  await db.query('delete from sessions where expires_at < $1', [now]);
}

/**
 * The change log (room_changes) exists only to replay a resuming client, and a client further behind than
 * `keep` offsets is sent RESYNC instead (gateway/resume.ts), so older changes are never read again: the
 * messages table keeps each message's final text and translations. Without this the log grows forever.
 */
export async function trimRoomChanges(db: Db, keep: number): Promise<void> {
  await db.query(
    `delete from room_changes c using rooms r
      where c.room_id = r.id and c.seq <= r.last_seq - $1`,
    [keep],
  );
}

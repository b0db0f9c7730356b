import type { Clock } from '../clock.js';
import type { Db } from './db.js';

/**
 * Tables whose rows end at `expires_at`. Every reader refuses an expired row by itself, so removing them
 * only frees space: it runs now and then in the background, not on the request paths that write them.
 */
const EXPIRING_TABLES = [
  'sessions',
  'botcheck_used',
  'auth_flows',
  'auth_codes',
  'email_tokens',
  'wallet_nonces',
  'auth_counters',
] as const;

export async function deleteExpiredRows(db: Db, now: Date): Promise<void> {
  for (const table of EXPIRING_TABLES) await db.query(`delete from ${table} where expires_at < $1`, [now]);
}

/** Sweeps at once and then every `intervalMs`; `stop` waits for a sweep under way. */
export function startExpirySweeper(
  db: Db,
  clock: Clock,
  intervalMs: number,
  onError: (error: unknown) => void,
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = running.then(() => deleteExpiredRows(db, new Date(clock.now()))).catch(onError);
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

import type { Db } from '../../store/index.js';

/**
 * Auth's rows that end at `expires_at`: used bot-check challenges, sign-in flows, one-time codes, email tokens,
 * wallet nonces, attempt counters and sign-in sessions. Every
 * reader refuses an expired row by itself, so removing them only frees space (the store's sweeper calls
 * this now and then).
 */
const EXPIRING_TABLES = [
  'botcheck_used',
  'auth_flows',
  'auth_codes',
  'email_tokens',
  'wallet_nonces',
  'auth_counters',
  'sign_in_sessions',
] as const;

export async function deleteExpiredAuthRows(db: Db, now: Date): Promise<void> {
  for (const table of EXPIRING_TABLES) await db.query(`delete from ${table} where expires_at < $1`, [now]);
}

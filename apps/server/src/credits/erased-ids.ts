import { createHash } from 'node:crypto';
import type { Queryable } from '../store/index.js';

/*
 * What the ledger keeps of a deleted account's id: its hash, so that a change still in flight when the
 * person deleted their account cannot open a new account under the old id, while the id itself is kept
 * nowhere (decision 0246).
 */
export function erasedIdHash(userId: string): string {
  return createHash('sha256').update(userId).digest('base64url');
}

/** Which of `userIds` belonged to a deleted account. */
export async function erasedAmong(tx: Queryable, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const byHash = new Map(userIds.map((userId) => [erasedIdHash(userId), userId]));
  const { rows } = await tx.query<{ id_hash: string }>(
    'select id_hash from erased_ledgers where id_hash = any($1::text[])',
    [[...byHash.keys()]],
  );
  return rows.map((row) => byHash.get(row.id_hash)!);
}

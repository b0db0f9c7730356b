import { dbOf, type Store } from './store.js';

/** Who each credit order belongs to (a deleted person's orders stay under their ledger's pseudonym). */
export async function orderOwners(store: Store): Promise<{ id: string; user_id: string }[]> {
  const { rows } = await dbOf(store).query<{ id: string; user_id: string }>(
    'select id, user_id from credit_orders order by id',
  );
  return rows;
}

import type { Queryable } from './ports.js';

/*
 * A player deleted (by themselves, or by an administrator with the admin key): the payment service keeps
 * its records of money, as the ledger keeps its rows, under the pseudonym the host gave the player's
 * ledger, so orders, purchases and transactions still add up and point back to no one. What the person
 * wrote in a withdraw request's note goes. The host runs this inside the deletion's transaction.
 */
export async function pseudonymisePaymentRecords(
  tx: Queryable,
  userId: string,
  pseudonym: string,
): Promise<void> {
  await tx.query('update credit_orders set user_id = $2 where user_id = $1', [userId, pseudonym]);
  await tx.query('update store_purchases set user_id = $2 where user_id = $1', [userId, pseudonym]);
  await tx.query('update payment_txns set user_id = $2 where user_id = $1', [userId, pseudonym]);
  await tx.query('update credit_withdraw_requests set user_id = $2, note = null where user_id = $1', [
    userId,
    pseudonym,
  ]);
}

/** The player's orders for the export: what they bought, when, and how it ended. */
export async function ordersOf(
  db: Pick<Queryable, 'query'>,
  userId: string,
): Promise<
  { id: string; amount: number; priceJpy: number; productId: string; status: string; createdAt: string }[]
> {
  const { rows } = await db.query<{
    id: string;
    amount: number;
    price_jpy: number;
    product_id: string;
    status: string;
    created_at: Date | string;
  }>(
    `select id, amount, price_jpy, product_id, status, created_at from credit_orders where user_id = $1
     order by created_at`,
    [userId],
  );
  return rows.map((row) => ({
    id: row.id,
    amount: Number(row.amount),
    priceJpy: Number(row.price_jpy),
    productId: row.product_id,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}

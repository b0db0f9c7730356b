import { randomUUID } from 'node:crypto';
import type { StorePlatform, StorePurchase, StorePurchaseStatus } from '@xtalk/protocol';
import type { Clock } from './ports.js';
import type { Db } from './ports.js';

/*
 * App-store purchases (table store_purchases, migration 4). A purchase is claimed by inserting its row
 * (unique per platform and key) before its credits move, so a token can never pay out to two players;
 * `crediting` marks a claim whose ledger row may not exist yet (the ledger's idempotency key makes
 * finishing it again safe).
 */

export type StoredStatus = StorePurchaseStatus | 'crediting';

interface Row {
  id: string;
  platform: StorePlatform;
  purchase_key: string;
  app_id: string;
  user_id: string;
  product_id: string;
  order_id: string | null;
  quantity: number;
  credits: number;
  status: StoredStatus;
  consume_error: string | null;
  ledger_txn_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface StoredPurchase {
  id: string;
  platform: StorePlatform;
  key: string;
  appId: string;
  userId: string;
  productId: string;
  orderId: string | null;
  quantity: number;
  credits: number;
  status: StoredStatus;
  consumeError: string | null;
  ledgerTxnId: string | null;
  createdAt: number;
  updatedAt: number;
}

const fromRow = (row: Row): StoredPurchase => ({
  id: row.id,
  platform: row.platform,
  key: row.purchase_key,
  appId: row.app_id,
  userId: row.user_id,
  productId: row.product_id,
  orderId: row.order_id,
  quantity: Number(row.quantity),
  credits: Number(row.credits),
  status: row.status,
  consumeError: row.consume_error,
  ledgerTxnId: row.ledger_txn_id,
  createdAt: new Date(row.created_at).getTime(),
  updatedAt: new Date(row.updated_at).getTime(),
});

/** As the API shows it; a claim still crediting shows as credited (it will be, or the call failed). */
export function toApiPurchase(purchase: StoredPurchase): StorePurchase {
  return {
    id: purchase.id,
    platform: purchase.platform,
    appId: purchase.appId,
    gctId: purchase.userId,
    productId: purchase.productId,
    purchaseToken: purchase.key,
    orderId: purchase.orderId,
    quantity: purchase.quantity,
    credits: purchase.credits,
    status: purchase.status === 'crediting' ? 'credited' : purchase.status,
    consumeError: purchase.consumeError,
    createdAt: purchase.createdAt,
    updatedAt: purchase.updatedAt,
  };
}

export interface PurchaseListQuery {
  userId: string;
  appId?: string | undefined;
  status?: StorePurchaseStatus | undefined;
  /** Admins see revoked purchases among the rest. */
  includeRevoked?: boolean;
  limit: number;
  page: number;
}

/** A player's purchases, newest first; revoked ones only when asked for by status. */
async function listPurchases(db: Db, query: PurchaseListQuery): Promise<StoredPurchase[]> {
  const params: unknown[] = [query.userId];
  let where = 'user_id = $1';
  if (query.appId !== undefined) {
    params.push(query.appId);
    where += ` and app_id = $${params.length}`;
  }
  if (query.status === undefined) {
    if (!query.includeRevoked) where += " and status <> 'revoked'";
  } else {
    params.push(query.status === 'credited' ? ['credited', 'crediting'] : [query.status]);
    where += ` and status = any($${params.length}::text[])`;
  }
  params.push(query.limit, query.page * query.limit);
  const { rows } = await db.query<Row>(
    `select * from store_purchases where ${where} order by created_at desc, id
       limit $${params.length - 1} offset $${params.length}`,
    params,
  );
  return rows.map(fromRow);
}

export function createStorePurchasesRepo(db: Db, clock: Clock) {
  const now = () => new Date(clock.now());

  async function find(platform: StorePlatform, key: string): Promise<StoredPurchase | undefined> {
    const { rows } = await db.query<Row>(
      'select * from store_purchases where platform = $1 and purchase_key = $2',
      [platform, key],
    );
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  return {
    find,

    /** Inserts the claim unless the purchase is known; returns the stored row either way. */
    async claim(purchase: {
      platform: StorePlatform;
      key: string;
      appId: string;
      userId: string;
      productId: string;
      orderId: string | null;
      quantity: number;
      credits: number;
    }): Promise<StoredPurchase> {
      const at = now();
      await db.query(
        `insert into store_purchases (id, platform, purchase_key, app_id, user_id, product_id, order_id,
           quantity, credits, status, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'crediting', $10, $10)
         on conflict (platform, purchase_key) do nothing`,
        [
          randomUUID(),
          purchase.platform,
          purchase.key,
          purchase.appId,
          purchase.userId,
          purchase.productId,
          purchase.orderId,
          purchase.quantity,
          purchase.credits,
          at,
        ],
      );
      return (await find(purchase.platform, purchase.key)) as StoredPurchase;
    },

    /** Moves a purchase from `from` to `to`; false when it was not in `from` (someone else moved it). */
    async transition(
      id: string,
      from: StoredStatus[],
      to: StoredStatus,
      fields: { ledgerTxnId?: string; consumeError?: string } = {},
    ): Promise<boolean> {
      const { rows } = await db.query<{ id: string }>(
        `update store_purchases set status = $2, updated_at = $3,
           ledger_txn_id = coalesce($4, ledger_txn_id), consume_error = coalesce($5, consume_error)
         where id = $1 and status = any($6::text[]) returning id`,
        [id, to, now(), fields.ledgerTxnId ?? null, fields.consumeError ?? null, from],
      );
      return rows.length > 0;
    },

    /** Records the app's consume failure without changing the status (a consumed purchase stays so). */
    async noteConsumeError(id: string, error: string): Promise<void> {
      await db.query('update store_purchases set consume_error = $2, updated_at = $3 where id = $1', [
        id,
        error,
        now(),
      ]);
    },

    list: (query: PurchaseListQuery) => listPurchases(db, query),
  };
}
export type StorePurchasesRepo = ReturnType<typeof createStorePurchasesRepo>;

import { randomBytes } from 'node:crypto';
import type { CreditPackage, OrderStatus } from '@xtalk/protocol';
import type { Clock } from './ports.js';
import type { Db } from './ports.js';

/*
 * Orders for credit packages: created pending when the buyer starts a checkout, then paid (only by a
 * verified webhook or the server's own test checkout, through crediting.ts) or canceled.
 */

export type PaymentProvider = 'stripe' | 'test';

export interface Order {
  id: string;
  userId: string;
  amount: number;
  priceJpy: number;
  productId: string;
  provider: PaymentProvider;
  providerRef: string | null;
  status: OrderStatus;
  createdAt: number;
}

interface OrderRow {
  id: string;
  user_id: string;
  amount: number;
  price_jpy: number;
  product_id: string;
  provider: PaymentProvider;
  provider_ref: string | null;
  status: OrderStatus;
  created_at: Date | string;
}

const COLUMNS = 'id, user_id, amount, price_jpy, product_id, provider, provider_ref, status, created_at';

function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    userId: row.user_id,
    amount: Number(row.amount),
    priceJpy: Number(row.price_jpy),
    productId: row.product_id,
    provider: row.provider,
    providerRef: row.provider_ref,
    status: row.status,
    createdAt: new Date(row.created_at).getTime(),
  };
}

export function createOrdersRepo(db: Db, clock: Clock) {
  return {
    async create(userId: string, pack: CreditPackage, provider: PaymentProvider): Promise<Order> {
      // unguessable: the test checkout page is reached by its id alone
      const id = `ord_${randomBytes(18).toString('base64url')}`;
      const now = new Date(clock.now());
      const { rows } = await db.query<OrderRow>(
        `insert into credit_orders (id, user_id, amount, price_jpy, product_id, provider, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $7) returning ${COLUMNS}`,
        [id, userId, pack.amount, pack.priceJpy, pack.productId, provider, now],
      );
      return toOrder(rows[0] as OrderRow);
    },

    async find(id: string): Promise<Order | undefined> {
      const { rows } = await db.query<OrderRow>(`select ${COLUMNS} from credit_orders where id = $1`, [id]);
      return rows[0] ? toOrder(rows[0]) : undefined;
    },

    /** A user's orders in the given statuses, newest first, one page of them. */
    async listForUser(
      userId: string,
      statuses: readonly OrderStatus[],
      page: { limit: number; offset: number },
    ): Promise<Order[]> {
      const { rows } = await db.query<OrderRow>(
        `select ${COLUMNS} from credit_orders where user_id = $1 and status = any($2::text[])
         order by created_at desc, id limit $3 offset $4`,
        [userId, statuses, page.limit, page.offset],
      );
      return rows.map(toOrder);
    },

    /** How many orders there are, of every user. */
    async count(): Promise<number> {
      const { rows } = await db.query<{ n: number | string }>('select count(*) as n from credit_orders');
      return Number(rows[0]?.n ?? 0);
    },

    async setProviderRef(id: string, ref: string): Promise<void> {
      await db.query('update credit_orders set provider_ref = $2, updated_at = $3 where id = $1', [
        id,
        ref,
        new Date(clock.now()),
      ]);
    },

    /** Paid is final: a paid order never turns canceled, and paying twice is one change. */
    async markPaid(id: string): Promise<void> {
      await db.query(`update credit_orders set status = 'paid', updated_at = $2 where id = $1`, [
        id,
        new Date(clock.now()),
      ]);
    },

    /** Cancels a pending order; returns false when it was no longer pending. */
    async cancelPending(id: string): Promise<boolean> {
      const { rows } = await db.query(
        `update credit_orders set status = 'canceled', updated_at = $2 where id = $1 and status = 'pending'
         returning id`,
        [id, new Date(clock.now())],
      );
      return rows.length > 0;
    },
  };
}
export type OrdersRepo = ReturnType<typeof createOrdersRepo>;

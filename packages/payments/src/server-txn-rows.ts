import { randomUUID } from 'node:crypto';
import type { ServerTxn, ServerTxnStatus, TxnCreateBody } from '@xtalk/protocol';
import { PaymentError } from './errors.js';
import type { Clock, Db } from './ports.js';

/*
 * The rows of servers' two-phase transactions (table payment_txns; server-txns.ts moves them). Besides
 * the statuses the API shows, `confirming` and `reverting` mark a step in flight, shown as the status
 * before it until a retry finishes it.
 */

export type Stored = ServerTxnStatus | 'confirming' | 'reverting';

export interface Row {
  id: string;
  user_id: string;
  idempotency_key: string;
  amount: string | number;
  part: 'free' | 'premium' | null;
  cause: string;
  reference: string | null;
  status: Stored;
  ledger_txn_id: string | null;
  reversal_txn_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export const SHOWN: Record<Stored, ServerTxnStatus> = {
  pending: 'pending',
  confirming: 'pending',
  confirmed: 'confirmed',
  reverting: 'confirmed',
  reverted: 'reverted',
  canceled: 'canceled',
};

export const toTxn = (row: Row): ServerTxn => ({
  id: row.id,
  gctId: row.user_id,
  amount: Number(row.amount),
  part: row.part,
  cause: row.cause,
  reference: row.reference,
  idempotencyKey: row.idempotency_key,
  status: SHOWN[row.status],
  ledgerTxnId: row.ledger_txn_id,
  reversalTxnId: row.reversal_txn_id,
  createdAt: new Date(row.created_at).getTime(),
  updatedAt: new Date(row.updated_at).getTime(),
});

/** The payment_txns rows: read one, move one from a status to the next, insert one, list a player's. */
export function createTxnRows(db: Db, clock: Clock) {
  const now = () => new Date(clock.now());

  async function row(id: string): Promise<Row> {
    const { rows } = await db.query<Row>('select * from payment_txns where id = $1', [id]);
    if (!rows[0]) throw new PaymentError(404, 'not_found', `No transaction ${id}.`);
    return rows[0];
  }

  /** Steps in flight (and their undoing) leave updated_at alone: a refused confirm changes nothing seen. */
  async function move(id: string, from: Stored, to: Stored, fields: Partial<Row> = {}): Promise<boolean> {
    const touch = SHOWN[from] !== SHOWN[to];
    const { rows } = await db.query(
      `update payment_txns set status = $3, updated_at = case when $4::boolean then $5 else updated_at end,
         ledger_txn_id = coalesce($6, ledger_txn_id), reversal_txn_id = coalesce($7, reversal_txn_id)
       where id = $1 and status = $2 returning id`,
      [id, from, to, touch, now(), fields.ledger_txn_id ?? null, fields.reversal_txn_id ?? null],
    );
    return rows.length > 0;
  }

  /** Inserts the transaction unless its key is known; the stored row either way. */
  async function insert(body: TxnCreateBody, cause: string): Promise<Row> {
    await db.query(
      `insert into payment_txns (id, user_id, idempotency_key, amount, part, cause, reference, status,
         created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $8)
       on conflict (user_id, idempotency_key) do nothing`,
      [
        randomUUID(),
        body.gctId,
        body.idempotencyKey,
        body.amount,
        body.part ?? null,
        cause,
        body.reference ?? null,
        now(),
      ],
    );
    const { rows } = await db.query<Row>(
      'select * from payment_txns where user_id = $1 and idempotency_key = $2',
      [body.gctId, body.idempotencyKey],
    );
    return rows[0] as Row;
  }

  return {
    row,
    move,
    insert,

    async list(query: { gctId: string; status?: ServerTxnStatus | undefined; limit: number; page: number }) {
      const stored = Object.entries(SHOWN)
        .filter(([, shown]) => query.status === undefined || shown === query.status)
        .map(([status]) => status);
      const { rows } = await db.query<Row>(
        `select * from payment_txns where user_id = $1 and status = any($2::text[])
         order by created_at desc, id limit $3 offset $4`,
        [query.gctId, stored, query.limit, query.page * query.limit],
      );
      return rows.map(toTxn);
    },
  };
}

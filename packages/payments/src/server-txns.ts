import { randomUUID } from 'node:crypto';
import type { ServerTxn, ServerTxnStatus, TxnCreateBody } from '@xtalk/protocol';
import type { Clock } from './ports.js';
import { LedgerRefusal, type LedgerPort, type LedgerResult } from './ports.js';
import type { Db } from './ports.js';
import { PaymentError } from './errors.js';

/*
 * A server's two-phase transactions (table payment_txns, migration 4): created pending (nothing moves),
 * confirmed (moved through the ledger once, keyed by the transaction's id), reverted (a new reversing
 * ledger row, never an edit) or canceled while pending. `confirming` and `reverting` mark a step in
 * flight: a retry finishes it (the ledger keys make that safe) and the API shows the status before it.
 */

type Stored = ServerTxnStatus | 'confirming' | 'reverting';

interface Row {
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

const SHOWN: Record<Stored, ServerTxnStatus> = {
  pending: 'pending',
  confirming: 'pending',
  confirmed: 'confirmed',
  reverting: 'confirmed',
  reverted: 'reverted',
  canceled: 'canceled',
};

const toTxn = (row: Row): ServerTxn => ({
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

export function createServerTxns(deps: { db: Db; ledger: LedgerPort; clock: Clock }) {
  const { db, ledger } = deps;
  const now = () => new Date(deps.clock.now());

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

  /** Applies a transaction's amount through the ledger under its own key (once, however often asked). */
  async function apply(txn: Row): Promise<LedgerResult> {
    const entry = {
      userId: txn.user_id,
      key: `server-txn:${txn.id}`,
      cause: txn.cause,
      reference: txn.reference ?? txn.id,
    };
    const amount = Number(txn.amount);
    if (amount > 0)
      return ledger.credit({ ...entry, amount, part: txn.part ?? 'premium', kind: 'adjustment' });
    if (txn.part) return ledger.adjust({ ...entry, [txn.part]: amount });
    const spent = await ledger.spend({ ...entry, amount: -amount });
    if (!spent.ok) throw new LedgerRefusal('insufficient', 'Not enough credits.');
    return spent;
  }

  async function confirm(id: string): Promise<ServerTxn> {
    const txn = await row(id);
    if (txn.status === 'canceled')
      throw new PaymentError(409, 'transaction_canceled', `Transaction ${id} was canceled.`);
    if (txn.status !== 'pending' && txn.status !== 'confirming') return toTxn(txn);
    if (txn.status === 'pending' && !(await move(id, 'pending', 'confirming'))) return confirm(id);
    try {
      const result = await apply(txn);
      await move(id, 'confirming', 'confirmed', { ledger_txn_id: result.txn.id });
    } catch (error) {
      // refused (not enough credits): nothing moved, the transaction stays pending
      if (error instanceof LedgerRefusal) await move(id, 'confirming', 'pending');
      throw error;
    }
    return toTxn(await row(id));
  }

  return {
    async get(id: string): Promise<ServerTxn> {
      return toTxn(await row(id));
    },

    /** Records the transaction; the same key again returns it, and a different body under it is a 409. */
    async create(body: TxnCreateBody): Promise<ServerTxn> {
      const at = now();
      const cause = body.cause ?? 'server';
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
          at,
        ],
      );
      const { rows } = await db.query<Row>(
        'select * from payment_txns where user_id = $1 and idempotency_key = $2',
        [body.gctId, body.idempotencyKey],
      );
      const stored = rows[0] as Row;
      if (
        Number(stored.amount) !== body.amount ||
        stored.part !== (body.part ?? null) ||
        stored.cause !== cause
      ) {
        throw new PaymentError(
          409,
          'idempotency_conflict',
          'idempotencyKey was already used for another transaction.',
        );
      }
      return body.confirm ? confirm(stored.id) : toTxn(stored);
    },

    confirm,

    /** Undoes a transaction: a pending one is canceled, a confirmed one reversed by a new ledger row. */
    async revert(id: string): Promise<ServerTxn> {
      const txn = await row(id);
      if (txn.status === 'pending') {
        if (!(await move(id, 'pending', 'canceled'))) return this.revert(id);
        return toTxn(await row(id));
      }
      if (txn.status === 'confirming')
        throw new PaymentError(409, 'conflict', `Transaction ${id} is being confirmed.`);
      if (txn.status !== 'confirmed' && txn.status !== 'reverting') return toTxn(txn);
      if (txn.status === 'confirmed' && !(await move(id, 'confirmed', 'reverting'))) return this.revert(id);
      try {
        const result = await ledger.reverse({
          userId: txn.user_id,
          key: `server-txn-revert:${id}`,
          cause: txn.cause,
          reference: id,
          txnId: txn.ledger_txn_id as string,
        });
        await move(id, 'reverting', 'reverted', { reversal_txn_id: result.txn.id });
      } catch (error) {
        if (error instanceof LedgerRefusal) await move(id, 'reverting', 'confirmed');
        throw error;
      }
      return toTxn(await row(id));
    },

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
export type ServerTxns = ReturnType<typeof createServerTxns>;

import type { ServerTxn, TxnCreateBody } from '@xtalk/protocol';
import { PaymentError } from './errors.js';
import { LedgerRefusal, type Clock, type Db, type LedgerPort, type LedgerResult } from './ports.js';
import { createTxnRows, toTxn, type Row } from './server-txn-rows.js';

/*
 * A server's two-phase transactions (server-txn-rows.ts): created pending (nothing moves), confirmed
 * (moved through the ledger once, keyed by the transaction's id), reverted (a new reversing ledger row,
 * never an edit) or canceled while pending. A step in flight is finished by a retry (the ledger keys make
 * that safe) and shown as the status before it.
 */

export function createServerTxns(deps: { db: Db; ledger: LedgerPort; clock: Clock }) {
  const { ledger } = deps;
  const { row, move, insert, list } = createTxnRows(deps.db, deps.clock);

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
      const cause = body.cause ?? 'server';
      const stored = await insert(body, cause);
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

    list,
  };
}
export type ServerTxns = ReturnType<typeof createServerTxns>;

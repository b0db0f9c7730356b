import { randomUUID } from 'node:crypto';
import type { ServerWithdrawRequest } from '@xtalk/protocol';
import type { Clock } from './ports.js';
import { LedgerRefusal, type LedgerPort } from './ports.js';
import type { Db } from './ports.js';
import { PaymentError } from './errors.js';

/*
 * Withdraw requests (table credit_withdraw_requests of the credits module; migration 4 adds the decision
 * columns). A request moves nothing; approval takes the amount from the player's bought (premium)
 * credits through the ledger, once (keyed by the request), and rejection moves nothing. `approving`
 * marks an approval in flight, shown as pending, finished by a retry.
 */

type Stored = 'pending' | 'approving' | 'approved' | 'rejected';

interface Row {
  id: string;
  user_id: string;
  currency: string;
  amount: string | number;
  note: string | null;
  status: Stored;
  created_at: Date | string;
  decided_at: Date | string | null;
  decision_note: string | null;
  ledger_txn_id: string | null;
}

const toRequest = (row: Row): ServerWithdrawRequest => ({
  id: row.id,
  gctId: row.user_id,
  status: row.status === 'approving' ? 'pending' : row.status,
  currency: row.currency,
  amount: Number(row.amount),
  note: row.note,
  decisionNote: row.decision_note,
  ledgerTxnId: row.ledger_txn_id,
  createdAt: new Date(row.created_at).getTime(),
  decidedAt: row.decided_at === null ? null : new Date(row.decided_at).getTime(),
});

export function createWithdrawDecisions(deps: { db: Db; ledger: LedgerPort; clock: Clock }) {
  const { db, ledger } = deps;
  const now = () => new Date(deps.clock.now());

  async function row(id: string): Promise<Row> {
    const { rows } = await db.query<Row>('select * from credit_withdraw_requests where id = $1', [id]);
    if (!rows[0]) throw new PaymentError(404, 'not_found', `No withdraw request ${id}.`);
    return rows[0];
  }

  async function move(id: string, from: Stored, to: Stored, fields: { note?: string; txnId?: string } = {}) {
    const decided = to === 'approved' || to === 'rejected';
    const { rows } = await db.query(
      `update credit_withdraw_requests set status = $3,
         decided_at = case when $4::boolean then $5::timestamptz else decided_at end,
         decision_note = coalesce($6, decision_note), ledger_txn_id = coalesce($7, ledger_txn_id)
       where id = $1 and status = $2 returning id`,
      [id, from, to, decided, now(), fields.note ?? null, fields.txnId ?? null],
    );
    return rows.length > 0;
  }

  async function approve(id: string, note?: string): Promise<ServerWithdrawRequest> {
    const request = await row(id);
    if (request.status === 'rejected') {
      throw new PaymentError(409, 'withdraw_rejected', `Withdraw request ${id} was rejected.`);
    }
    if (request.status === 'approved') return toRequest(request);
    if (request.status === 'pending' && !(await move(id, 'pending', 'approving'))) return approve(id, note);
    try {
      const result = await ledger.adjust({
        userId: request.user_id,
        key: `withdraw:${id}`,
        cause: 'withdraw',
        reference: id,
        premium: -Number(request.amount),
      });
      await move(id, 'approving', 'approved', { txnId: result.txn.id, ...(note ? { note } : {}) });
    } catch (error) {
      // not enough bought credits: nothing moved; the request waits for another decision
      if (error instanceof LedgerRefusal) await move(id, 'approving', 'pending');
      throw error;
    }
    return toRequest(await row(id));
  }

  return {
    async get(id: string): Promise<ServerWithdrawRequest> {
      return toRequest(await row(id));
    },

    async create(body: { gctId: string; currency: string; amount: number; note?: string | undefined }) {
      const id = randomUUID();
      await db.query(
        `insert into credit_withdraw_requests (id, user_id, currency, amount, note, status, created_at)
         values ($1, $2, $3, $4, $5, 'pending', $6)`,
        [id, body.gctId, body.currency, body.amount, body.note ?? null, now()],
      );
      return toRequest(await row(id));
    },

    approve,

    /** Rejects a pending request (nothing moves); a rejected one stays so, an approved one cannot be. */
    async reject(id: string, note?: string): Promise<ServerWithdrawRequest> {
      const request = await row(id);
      if (request.status === 'approved' || request.status === 'approving') {
        throw new PaymentError(409, 'withdraw_approved', `Withdraw request ${id} was already approved.`);
      }
      if (request.status === 'pending' && !(await move(id, 'pending', 'rejected', note ? { note } : {}))) {
        return this.reject(id, note);
      }
      return toRequest(await row(id));
    },
  };
}
export type WithdrawDecisions = ReturnType<typeof createWithdrawDecisions>;

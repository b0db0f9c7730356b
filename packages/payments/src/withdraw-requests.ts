import { randomUUID } from 'node:crypto';
import type { WithdrawRequestResponse } from '@xtalk/protocol';
import type { Clock } from './ports.js';
import type { Db } from './ports.js';

/*
 * Withdraw requests: recorded for an administrator, who approves or rejects them through the admin
 * calls. Recording one moves no credits.
 */

interface Row {
  id: string;
  currency: string;
  amount: number;
  status: WithdrawRequestResponse['status'];
  created_at: Date | string;
}

export function createWithdrawRequests(db: Db, clock: Clock) {
  return {
    async create(
      userId: string,
      input: { currency: string; amount: number; note?: string | undefined },
    ): Promise<WithdrawRequestResponse> {
      const { rows } = await db.query<Row>(
        `insert into credit_withdraw_requests (id, user_id, currency, amount, note, created_at)
         values ($1, $2, $3, $4, $5, $6) returning id, currency, amount, status, created_at`,
        [randomUUID(), userId, input.currency, input.amount, input.note ?? null, new Date(clock.now())],
      );
      const row = rows[0] as Row;
      return {
        id: row.id,
        status: row.status,
        currency: row.currency,
        amount: Number(row.amount),
        createdAt: new Date(row.created_at).getTime(),
      };
    },
  };
}
export type WithdrawRequests = ReturnType<typeof createWithdrawRequests>;

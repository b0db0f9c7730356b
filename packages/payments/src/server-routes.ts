import type { FastifyInstance } from 'fastify';
import {
  ServerPath,
  txnCreateBodySchema,
  txnIdSchema,
  txnListServerQuerySchema,
  withdrawCreateBodySchema,
  withdrawDecisionBodySchema,
  type ServerTxn,
  type ServerWithdrawRequest,
} from '@xtalk/protocol';
import type { UsersPort } from './ports.js';
import type { Clock } from './ports.js';
import type { LedgerPort } from './ports.js';
import type { Db } from './ports.js';
import { parseOr400, PaymentError, usePaymentErrors } from './errors.js';
import type { KeyCheck } from './keys.js';
import { createServerTxns } from './server-txns.js';
import { createWithdrawDecisions } from './withdraw-decisions.js';

/*
 * Transactions (create, get, list, confirm, revert) and withdraw requests (create, get, approve,
 * reject) for other servers, with the server key. Each answer carries the player's
 * balance after it, so a caller never needs a second read to show it.
 */

export async function txnServerRoutes(
  app: FastifyInstance,
  deps: { db: Db; ledger: LedgerPort; clock: Clock; users: UsersPort; serverKey: KeyCheck },
) {
  usePaymentErrors(app);
  const { ledger } = deps;
  const txns = createServerTxns(deps);
  const withdrawals = createWithdrawDecisions(deps);

  async function player(gctId: string): Promise<string> {
    if (!(await deps.users.exists(gctId))) throw new PaymentError(404, 'not_found', `No player ${gctId}.`);
    return gctId;
  }
  const withBalance = async (txn: ServerTxn) => ({ txn, balance: await ledger.balance(txn.gctId) });
  const withdrawal = async (request: ServerWithdrawRequest) => ({
    request,
    balance: await ledger.balance(request.gctId),
  });

  app.post(ServerPath.txnCreate, async (request) => {
    deps.serverKey(request);
    const body = parseOr400(txnCreateBodySchema, request.body);
    await player(body.gctId);
    return withBalance(await txns.create(body));
  });

  app.get(ServerPath.txnGet, async (request) => {
    deps.serverKey(request);
    return withBalance(await txns.get(parseOr400(txnIdSchema, request.query).id));
  });

  app.get(ServerPath.txnList, async (request) => {
    deps.serverKey(request);
    const query = parseOr400(txnListServerQuerySchema, request.query);
    await player(query.gctId);
    return { items: await txns.list(query), page: query.page, limit: query.limit };
  });

  app.post(ServerPath.txnConfirm, async (request) => {
    deps.serverKey(request);
    return withBalance(await txns.confirm(parseOr400(txnIdSchema, request.body).id));
  });

  app.post(ServerPath.txnRevert, async (request) => {
    deps.serverKey(request);
    return withBalance(await txns.revert(parseOr400(txnIdSchema, request.body).id));
  });

  app.post(ServerPath.withdrawCreate, async (request) => {
    deps.serverKey(request);
    const body = parseOr400(withdrawCreateBodySchema, request.body);
    await player(body.gctId);
    return withdrawal(await withdrawals.create(body));
  });

  app.get(ServerPath.withdrawGet, async (request) => {
    deps.serverKey(request);
    return withdrawal(await withdrawals.get(parseOr400(txnIdSchema, request.query).id));
  });

  app.post(ServerPath.withdrawApprove, async (request) => {
    deps.serverKey(request);
    const body = parseOr400(withdrawDecisionBodySchema, request.body);
    return withdrawal(await withdrawals.approve(body.id, body.note));
  });

  app.post(ServerPath.withdrawReject, async (request) => {
    deps.serverKey(request);
    const body = parseOr400(withdrawDecisionBodySchema, request.body);
    return withdrawal(await withdrawals.reject(body.id, body.note));
  });
}

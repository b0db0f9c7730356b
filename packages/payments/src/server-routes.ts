import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiSecurity,
  ApiTag,
  errorResponses,
  ServerPath,
  serverTxnListResponseSchema,
  serverTxnResponseSchema,
  serverWithdrawResponseSchema,
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
import { PaymentError, usePaymentErrors } from './errors.js';
import type { KeyCheck } from './keys.js';
import { createServerTxns } from './server-txns.js';
import { createWithdrawDecisions } from './withdraw-decisions.js';

/*
 * Transactions (create, get, list, confirm, revert) and withdraw requests (create, get, approve,
 * reject) for other servers, with the server key. Each answer carries the player's
 * balance after it, so a caller never needs a second read to show it.
 */

type ServerRouteDeps = { db: Db; ledger: LedgerPort; clock: Clock; users: UsersPort; serverKey: KeyCheck };

const keyed = { tags: [ApiTag.payments], security: ApiSecurity.serverKey };

/** Every call names an existing player; the server key must not act for made-up ids. */
async function player(deps: ServerRouteDeps, gctId: string): Promise<string> {
  if (!(await deps.users.exists(gctId))) throw new PaymentError(404, 'not_found', `No player ${gctId}.`);
  return gctId;
}

export async function txnServerRoutes(app: FastifyInstance, deps: ServerRouteDeps) {
  usePaymentErrors(app);
  transactionRoutes(app, deps);
  withdrawRequestRoutes(app, deps);
}

/** Two-phase transactions: create (nothing moves), confirm (moves once), revert; get and list. */
function transactionRoutes(app: FastifyInstance, deps: ServerRouteDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const txns = createServerTxns(deps);
  const withBalance = async (txn: ServerTxn) => ({ txn, balance: await deps.ledger.balance(txn.gctId) });
  const txnAnswer = { 200: serverTxnResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 503) };
  const hook = { preValidation: deps.serverKey };

  api.post(
    ServerPath.txnCreate,
    {
      ...hook,
      schema: {
        ...keyed,
        summary: 'Record a pending transaction',
        body: txnCreateBodySchema,
        response: txnAnswer,
      },
    },
    async (request) => {
      await player(deps, request.body.gctId);
      return withBalance(await txns.create(request.body));
    },
  );

  api.get(
    ServerPath.txnGet,
    {
      ...hook,
      schema: { ...keyed, summary: 'Read a transaction', querystring: txnIdSchema, response: txnAnswer },
    },
    async (request) => withBalance(await txns.get(request.query.id)),
  );

  api.get(
    ServerPath.txnList,
    {
      ...hook,
      schema: {
        ...keyed,
        summary: "List a player's transactions",
        querystring: txnListServerQuerySchema,
        response: { 200: serverTxnListResponseSchema, ...errorResponses(400, 401, 403, 404, 503) },
      },
    },
    async (request) => {
      const { query } = request;
      await player(deps, query.gctId);
      return { items: await txns.list(query), page: query.page, limit: query.limit };
    },
  );

  api.post(
    ServerPath.txnConfirm,
    {
      ...hook,
      schema: {
        ...keyed,
        summary: 'Confirm a transaction: its amount moves',
        body: txnIdSchema,
        response: txnAnswer,
      },
    },
    async (request) => withBalance(await txns.confirm(request.body.id)),
  );

  api.post(
    ServerPath.txnRevert,
    {
      ...hook,
      schema: { ...keyed, summary: 'Revert a confirmed transaction', body: txnIdSchema, response: txnAnswer },
    },
    async (request) => withBalance(await txns.revert(request.body.id)),
  );
}

/** Withdraw requests: a request moves nothing; approving takes the amount once, rejecting nothing. */
function withdrawRequestRoutes(app: FastifyInstance, deps: ServerRouteDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const withdrawals = createWithdrawDecisions(deps);
  const withdrawal = async (request: ServerWithdrawRequest) => ({
    request,
    balance: await deps.ledger.balance(request.gctId),
  });
  const withdrawAnswer = {
    200: serverWithdrawResponseSchema,
    ...errorResponses(400, 401, 403, 404, 409, 503),
  };
  const hook = { preValidation: deps.serverKey };

  api.post(
    ServerPath.withdrawCreate,
    {
      ...hook,
      schema: {
        ...keyed,
        summary: 'Record a withdraw request',
        body: withdrawCreateBodySchema,
        response: withdrawAnswer,
      },
    },
    async (request) => {
      await player(deps, request.body.gctId);
      return withdrawal(await withdrawals.create(request.body));
    },
  );

  api.get(
    ServerPath.withdrawGet,
    {
      ...hook,
      schema: {
        ...keyed,
        summary: 'Read a withdraw request',
        querystring: txnIdSchema,
        response: withdrawAnswer,
      },
    },
    async (request) => withdrawal(await withdrawals.get(request.query.id)),
  );

  api.post(
    ServerPath.withdrawApprove,
    {
      ...hook,
      schema: {
        ...keyed,
        summary: 'Approve a withdraw request: its credits leave',
        body: withdrawDecisionBodySchema,
        response: withdrawAnswer,
      },
    },
    async (request) => withdrawal(await withdrawals.approve(request.body.id, request.body.note)),
  );

  api.post(
    ServerPath.withdrawReject,
    {
      ...hook,
      schema: {
        ...keyed,
        summary: 'Reject a withdraw request',
        body: withdrawDecisionBodySchema,
        response: withdrawAnswer,
      },
    },
    async (request) => withdrawal(await withdrawals.reject(request.body.id, request.body.note)),
  );
}

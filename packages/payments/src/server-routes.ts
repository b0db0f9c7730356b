import type { FastifyInstance, FastifySchema } from 'fastify';
import type { ZodType } from 'zod';
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

/** A route's options: the server key checked before the schema (decision 0226), tagged and summarised. */
function keyedRoute<S extends object>(deps: ServerRouteDeps, summary: string, schema: S) {
  return { preValidation: deps.serverKey, schema: { ...keyed, summary, ...schema } };
}

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

/**
 * A record another server keeps here (a transaction, a withdraw request): made for an existing player, read
 * by id, then decided on; every answer is the record with the player's balance after it.
 */
interface RecordRoutes<R extends { gctId: string }, B extends { gctId: string }> {
  create: { path: string; summary: string; body: ZodType<B>; make(body: B): Promise<R> };
  get: { path: string; summary: string; read(id: string): Promise<R> };
  decisions: Array<{
    path: string;
    summary: string;
    body: ZodType<{ id: string; note?: string }>;
    decide(body: { id: string; note?: string }): Promise<R>;
  }>;
  response: FastifySchema['response'];
  answer(record: R): Promise<object>;
}

function recordRoutes<R extends { gctId: string }, B extends { gctId: string }>(
  app: FastifyInstance,
  deps: ServerRouteDeps,
  spec: RecordRoutes<R, B>,
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { create, get, response, answer } = spec;
  api.post(
    create.path,
    keyedRoute(deps, create.summary, { body: create.body, response }),
    async (request) => {
      // the schema is the create's own: its body is what `make` takes
      const body = request.body as B;
      await player(deps, body.gctId);
      return answer(await create.make(body));
    },
  );
  api.get(get.path, keyedRoute(deps, get.summary, { querystring: txnIdSchema, response }), async (request) =>
    answer(await get.read(request.query.id)),
  );
  for (const decision of spec.decisions)
    api.post(
      decision.path,
      keyedRoute(deps, decision.summary, { body: decision.body, response }),
      async (request) => answer(await decision.decide(request.body)),
    );
}

/** Two-phase transactions: create (nothing moves), confirm (moves once), revert; get and list. */
function transactionRoutes(app: FastifyInstance, deps: ServerRouteDeps) {
  const txns = createServerTxns(deps);
  recordRoutes(app, deps, {
    create: {
      path: ServerPath.txnCreate,
      summary: 'Record a pending transaction',
      body: txnCreateBodySchema,
      make: (body) => txns.create(body),
    },
    get: { path: ServerPath.txnGet, summary: 'Read a transaction', read: (id) => txns.get(id) },
    decisions: [
      {
        path: ServerPath.txnConfirm,
        summary: 'Confirm a transaction: its amount moves',
        body: txnIdSchema,
        decide: ({ id }) => txns.confirm(id),
      },
      {
        path: ServerPath.txnRevert,
        summary: 'Revert a confirmed transaction',
        body: txnIdSchema,
        decide: ({ id }) => txns.revert(id),
      },
    ],
    response: { 200: serverTxnResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 503) },
    answer: async (txn: ServerTxn) => ({ txn, balance: await deps.ledger.balance(txn.gctId) }),
  });
  app.withTypeProvider<ZodTypeProvider>().get(
    ServerPath.txnList,
    keyedRoute(deps, "List a player's transactions", {
      querystring: txnListServerQuerySchema,
      response: { 200: serverTxnListResponseSchema, ...errorResponses(400, 401, 403, 404, 503) },
    }),
    async (request) => {
      const { query } = request;
      await player(deps, query.gctId);
      return { items: await txns.list(query), page: query.page, limit: query.limit };
    },
  );
}

/** Withdraw requests: a request moves nothing; approving takes the amount once, rejecting nothing. */
function withdrawRequestRoutes(app: FastifyInstance, deps: ServerRouteDeps) {
  const withdrawals = createWithdrawDecisions(deps);
  recordRoutes(app, deps, {
    create: {
      path: ServerPath.withdrawCreate,
      summary: 'Record a withdraw request',
      body: withdrawCreateBodySchema,
      make: (body) => withdrawals.create(body),
    },
    get: {
      path: ServerPath.withdrawGet,
      summary: 'Read a withdraw request',
      read: (id) => withdrawals.get(id),
    },
    decisions: [
      {
        path: ServerPath.withdrawApprove,
        summary: 'Approve a withdraw request: its credits leave',
        body: withdrawDecisionBodySchema,
        decide: ({ id, note }) => withdrawals.approve(id, note),
      },
      {
        path: ServerPath.withdrawReject,
        summary: 'Reject a withdraw request',
        body: withdrawDecisionBodySchema,
        decide: ({ id, note }) => withdrawals.reject(id, note),
      },
    ],
    response: { 200: serverWithdrawResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 503) },
    answer: async (request: ServerWithdrawRequest) => ({
      request,
      balance: await deps.ledger.balance(request.gctId),
    }),
  });
}

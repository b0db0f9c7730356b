import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiSecurity,
  ApiTag,
  balanceSchema,
  CREDIT_CURRENCY,
  errorResponses,
  ledgerChangeResponseSchema,
  serverWalletQuerySchema,
  serverWalletSchema,
  txnListResponseSchema,
  walletListResponseSchema,
  walletPageResponseSchema,
  ServerPath,
  walletAddBodySchema,
  walletCreateBodySchema,
  walletFilterQuerySchema,
  walletTransactionsQuerySchema,
  walletWithdrawBodySchema,
  type Balance,
  type ServerWallet,
} from '@xtalk/protocol';
import type { UsersPort } from './ports.js';
import { LedgerRefusal, type LedgerPort, type LedgerResult } from './ports.js';
import { PaymentError, usePaymentErrors } from './errors.js';
import type { KeyCheck } from './keys.js';

/*
 * Wallet calls of other servers (wallet create, balance, add, withdraw, list,
 * filterByBalance, transactions), with the server key. Amounts move only through the ledger; a
 * server's idempotencyKey becomes the ledger key (prefixed, so it never meets the ledger's own keys),
 * and the same key with another amount is refused rather than silently answered with the first.
 */

type WalletServerDeps = { ledger: LedgerPort; users: UsersPort; serverKey: KeyCheck };

const keyed = { tags: [ApiTag.payments], security: ApiSecurity.serverKey };

/** Every call names an existing player; the server key must not create accounts for made-up ids. */
async function player(deps: WalletServerDeps, gctId: string): Promise<string> {
  if (!(await deps.users.exists(gctId))) throw new PaymentError(404, 'not_found', `No player ${gctId}.`);
  return gctId;
}

export async function walletServerRoutes(app: FastifyInstance, deps: WalletServerDeps) {
  usePaymentErrors(app);
  walletReadRoutes(app, deps);
  walletChangeRoutes(app, deps);
}

/** Wallets read: open one, its balance, its list, wallets by balance, its ledger rows. */
function walletReadRoutes(app: FastifyInstance, deps: WalletServerDeps) {
  const { ledger } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const hook = { preValidation: deps.serverKey };
  const refusals = errorResponses(400, 401, 403, 404, 503);
  const wallet = (gctId: string, balance: Balance): ServerWallet => ({
    gctId,
    currency: CREDIT_CURRENCY,
    ...balance,
  });

  api.post(
    ServerPath.walletCreate,
    {
      ...hook,
      schema: {
        ...keyed,
        summary: "Open (or read) a player's wallet",
        body: walletCreateBodySchema,
        response: { 200: serverWalletSchema, ...refusals },
      },
    },
    async (request) =>
      wallet(request.body.gctId, await ledger.balance(await player(deps, request.body.gctId))),
  );

  api.get(
    ServerPath.walletBalance,
    {
      ...hook,
      schema: {
        ...keyed,
        summary: "A player's balance",
        querystring: serverWalletQuerySchema,
        response: { 200: balanceSchema, ...refusals },
      },
    },
    async (request) => ledger.balance(await player(deps, request.query.gctId)),
  );

  api.get(
    ServerPath.walletList,
    {
      ...hook,
      schema: {
        ...keyed,
        summary: "A player's wallets, one per currency",
        querystring: serverWalletQuerySchema,
        response: { 200: walletListResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const balance = await ledger.balance(await player(deps, request.query.gctId));
      return { items: [{ currency: CREDIT_CURRENCY, ...balance }] };
    },
  );

  api.get(
    ServerPath.walletFilterByBalance,
    {
      ...hook,
      schema: {
        ...keyed,
        summary: 'Wallets whose balance is in a range',
        querystring: walletFilterQuerySchema,
        response: { 200: walletPageResponseSchema, ...errorResponses(400, 401, 403, 503) },
      },
    },
    async (request) => {
      const { query } = request;
      return { items: await ledger.filterByBalance(query), page: query.page, limit: query.limit };
    },
  );

  api.get(
    ServerPath.walletTransactions,
    {
      ...hook,
      schema: {
        ...keyed,
        summary: "A player's ledger rows, newest first",
        querystring: walletTransactionsQuerySchema,
        response: { 200: txnListResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const { query } = request;
      const items = await ledger.list(await player(deps, query.gctId), query);
      return { items, page: query.page, limit: query.limit };
    },
  );
}

/** Credits moved by a server: add and withdraw, each once per idempotencyKey. */
function walletChangeRoutes(app: FastifyInstance, deps: WalletServerDeps) {
  const { ledger } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const hook = { preValidation: deps.serverKey };
  const change = { 200: ledgerChangeResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 503) };

  function sameChange(result: LedgerResult, expected: number): LedgerResult {
    if (!result.applied && result.txn.amount !== expected) {
      throw new PaymentError(
        409,
        'idempotency_conflict',
        'idempotencyKey was already used for another amount.',
      );
    }
    return result;
  }

  api.post(
    ServerPath.walletAdd,
    {
      ...hook,
      schema: { ...keyed, summary: 'Add credits to a player', body: walletAddBodySchema, response: change },
    },
    async (request) => {
      const { body } = request;
      const result = await ledger.credit({
        userId: await player(deps, body.gctId),
        key: `server:${body.idempotencyKey}`,
        cause: body.cause ?? 'server',
        reference: body.reference,
        amount: body.amount,
        part: body.part,
        kind: 'adjustment',
      });
      return sameChange(result, body.amount);
    },
  );

  api.post(
    ServerPath.walletWithdraw,
    {
      ...hook,
      schema: {
        ...keyed,
        summary: 'Take credits from a player',
        body: walletWithdrawBodySchema,
        response: change,
      },
    },
    async (request) => {
      const { body } = request;
      const entry = {
        userId: await player(deps, body.gctId),
        key: `server:${body.idempotencyKey}`,
        cause: body.cause ?? 'server',
        reference: body.reference,
      };
      if (body.part)
        return sameChange(await ledger.adjust({ ...entry, [body.part]: -body.amount }), -body.amount);
      const spent = await ledger.spend({ ...entry, amount: body.amount });
      if (!spent.ok) throw new LedgerRefusal('insufficient', `Not enough credits: ${body.amount} needed.`);
      return sameChange(spent, -body.amount);
    },
  );
}

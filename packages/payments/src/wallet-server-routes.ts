import type { FastifyInstance } from 'fastify';
import {
  CREDIT_CURRENCY,
  serverWalletQuerySchema,
  ServerPath,
  walletAddBodySchema,
  walletCreateBodySchema,
  walletFilterQuerySchema,
  walletTransactionsQuerySchema,
  walletWithdrawBodySchema,
  type Balance,
  type ServerWallet,
  type TxnListResponse,
  type WalletListResponse,
} from '@xtalk/protocol';
import type { UsersPort } from './ports.js';
import { LedgerRefusal, type LedgerPort, type LedgerResult } from './ports.js';
import { parseOr400, PaymentError, usePaymentErrors } from './errors.js';
import type { KeyCheck } from './keys.js';

/*
 * Wallet calls of other servers (wallet create, balance, add, withdraw, list,
 * filterByBalance, transactions), with the server key. Amounts move only through the ledger; a
 * server's idempotencyKey becomes the ledger key (prefixed, so it never meets the ledger's own keys),
 * and the same key with another amount is refused rather than silently answered with the first.
 */

export async function walletServerRoutes(
  app: FastifyInstance,
  deps: { ledger: LedgerPort; users: UsersPort; serverKey: KeyCheck },
) {
  usePaymentErrors(app);
  const { ledger } = deps;

  /** Every call names an existing player; the server key must not create accounts for made-up ids. */
  async function player(gctId: string): Promise<string> {
    if (!(await deps.users.exists(gctId))) throw new PaymentError(404, 'not_found', `No player ${gctId}.`);
    return gctId;
  }

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

  const wallet = (gctId: string, balance: Balance): ServerWallet => ({
    gctId,
    currency: CREDIT_CURRENCY,
    ...balance,
  });

  app.post(ServerPath.walletCreate, async (request): Promise<ServerWallet> => {
    deps.serverKey(request);
    const body = parseOr400(walletCreateBodySchema, request.body);
    return wallet(body.gctId, await ledger.balance(await player(body.gctId)));
  });

  app.get(ServerPath.walletBalance, async (request): Promise<Balance> => {
    deps.serverKey(request);
    const query = parseOr400(serverWalletQuerySchema, request.query);
    return ledger.balance(await player(query.gctId));
  });

  app.get(ServerPath.walletList, async (request): Promise<WalletListResponse> => {
    deps.serverKey(request);
    const query = parseOr400(serverWalletQuerySchema, request.query);
    const balance = await ledger.balance(await player(query.gctId));
    return { items: [{ currency: CREDIT_CURRENCY, ...balance }] };
  });

  app.post(ServerPath.walletAdd, async (request): Promise<LedgerResult> => {
    deps.serverKey(request);
    const body = parseOr400(walletAddBodySchema, request.body);
    const result = await ledger.credit({
      userId: await player(body.gctId),
      key: `server:${body.idempotencyKey}`,
      cause: body.cause ?? 'server',
      reference: body.reference,
      amount: body.amount,
      part: body.part,
      kind: 'adjustment',
    });
    return sameChange(result, body.amount);
  });

  app.post(ServerPath.walletWithdraw, async (request): Promise<LedgerResult> => {
    deps.serverKey(request);
    const body = parseOr400(walletWithdrawBodySchema, request.body);
    const entry = {
      userId: await player(body.gctId),
      key: `server:${body.idempotencyKey}`,
      cause: body.cause ?? 'server',
      reference: body.reference,
    };
    if (body.part)
      return sameChange(await ledger.adjust({ ...entry, [body.part]: -body.amount }), -body.amount);
    const spent = await ledger.spend({ ...entry, amount: body.amount });
    if (!spent.ok) throw new LedgerRefusal('insufficient', `Not enough credits: ${body.amount} needed.`);
    return sameChange(spent, -body.amount);
  });

  app.get(ServerPath.walletFilterByBalance, async (request) => {
    deps.serverKey(request);
    const query = parseOr400(walletFilterQuerySchema, request.query);
    return { items: await ledger.filterByBalance(query), page: query.page, limit: query.limit };
  });

  app.get(ServerPath.walletTransactions, async (request): Promise<TxnListResponse> => {
    deps.serverKey(request);
    const query = parseOr400(walletTransactionsQuerySchema, request.query);
    const items = await ledger.list(await player(query.gctId), query);
    return { items, page: query.page, limit: query.limit };
  });
}

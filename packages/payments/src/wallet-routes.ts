import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiPath,
  ApiSecurity,
  ApiTag,
  balanceSchema,
  CREDIT_CURRENCY,
  creditPackageOf,
  errorResponses,
  purchaseBodySchema,
  purchaseResponseSchema,
  purchaseStatusQuerySchema,
  purchaseStatusResponseSchema,
  txnListQuerySchema,
  txnListResponseSchema,
  walletBalanceQuerySchema,
  walletListResponseSchema,
  withdrawRequestBodySchema,
  withdrawRequestResponseSchema,
} from '@xtalk/protocol';
import { rememberCheckoutSession } from './checkout-session.js';
import { publicBase, returnUrl, testCheckoutUrl } from './checkout-urls.js';
import { purchasesUnavailable, refusal } from './errors.js';
import type { OrdersRepo } from './orders-repo.js';
import type { AuthenticatorPort, LedgerPort, PaymentUser } from './ports.js';
import type { StripeGateway } from './stripe-gateway.js';
import type { WithdrawRequests } from './withdraw-requests.js';

/*
 * The client wallet calls (bearer): balance, wallets, purchase and its status, the
 * transaction list, and withdraw requests. A purchase creates a pending order and returns where to pay:
 * Stripe Checkout when Stripe is configured, else the server's own TEST MODE page when that is on; with
 * neither, it is refused and no order is made.
 */

export interface WalletRoutesDeps {
  authenticator: AuthenticatorPort;
  ledger: LedgerPort;
  orders: OrdersRepo;
  withdrawals: WithdrawRequests;
  /** Undefined: test mode, or no purchases. */
  stripe: StripeGateway | undefined;
  testCheckout: boolean;
  publicUrl: string;
}

/**
 * A wallet call without a session says so in its fixed words (docs/product.md), before its schema is
 * checked (decision 0226): a caller who never signed in is told to, not what the body lacks.
 */
async function sessionRequired(request: FastifyRequest): Promise<void> {
  if (!request.headers.authorization) throw refusal(401, 'No session found, please login.');
}
const sessionFirst = { preValidation: sessionRequired };
const bearer = { tags: [ApiTag.credits], security: ApiSecurity.bearer };

export async function walletRoutes(app: FastifyInstance, deps: WalletRoutesDeps) {
  walletReadRoutes(app, deps);
  walletBuyRoutes(app, deps);
}

/** What a signed-in player (a guest too) reads: balance, wallets, an order's status, ledger rows. */
function walletReadRoutes(app: FastifyInstance, deps: WalletRoutesDeps) {
  const { ledger, orders } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  async function signedIn(request: FastifyRequest): Promise<{ user: PaymentUser }> {
    return { user: await deps.authenticator.fromRequest(request) };
  }

  const balance = {
    summary: "The player's balance",
    querystring: walletBalanceQuerySchema,
    response: { 200: balanceSchema, ...errorResponses(400, 401) },
  };
  api.get(
    ApiPath.walletBalance,
    { ...sessionFirst, schema: { ...bearer, ...balance } },
    async (request, reply) => {
      const { user } = await signedIn(request);
      reply.header('cache-control', 'no-store');
      return ledger.balance(user.id);
    },
  );

  const list = {
    summary: "The player's wallets, one per currency",
    response: { 200: walletListResponseSchema, ...errorResponses(401) },
  };
  api.get(ApiPath.walletList, { ...sessionFirst, schema: { ...bearer, ...list } }, async (request, reply) => {
    const { user } = await signedIn(request);
    reply.header('cache-control', 'no-store');
    return { items: [{ currency: CREDIT_CURRENCY, ...(await ledger.balance(user.id)) }] };
  });

  const status = {
    summary: "One of the player's orders and its status",
    querystring: purchaseStatusQuerySchema,
    response: { 200: purchaseStatusResponseSchema, ...errorResponses(400, 401, 404) },
  };
  api.get(
    ApiPath.walletPurchaseStatus,
    { ...sessionFirst, schema: { ...bearer, ...status } },
    async (request, reply) => {
      const { user } = await signedIn(request);
      const { orderId } = request.query;
      const order = await orders.find(orderId);
      if (!order || order.userId !== user.id) throw refusal(404, 'No such order.');
      reply.header('cache-control', 'no-store');
      return { orderId: order.id, status: order.status };
    },
  );

  const txns = {
    summary: "The player's ledger rows, newest first",
    querystring: txnListQuerySchema,
    response: { 200: txnListResponseSchema, ...errorResponses(400, 401) },
  };
  api.get(
    ApiPath.walletTxnList,
    { ...sessionFirst, schema: { ...bearer, ...txns } },
    async (request, reply) => {
      const { user } = await signedIn(request);
      const { query } = request;
      reply.header('cache-control', 'no-store');
      return { items: await ledger.list(user.id, query), page: query.page, limit: query.limit };
    },
  );
}

/** What only a signed-in member does: buy credits, ask to withdraw bought ones. */
function walletBuyRoutes(app: FastifyInstance, deps: WalletRoutesDeps) {
  const { ledger, orders } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  async function buyer(request: FastifyRequest): Promise<{ user: PaymentUser }> {
    await sessionRequired(request);
    const user = await deps.authenticator.fromRequest(request);
    if (user.guest) throw refusal(403, 'Sign in to buy or withdraw credits.');
    return { user };
  }
  // a guest is told to sign in before the body is read
  const buyerFirst = async (request: FastifyRequest) => void (await buyer(request));

  const purchase = {
    summary: 'Buy a credit package: where to pay',
    body: purchaseBodySchema,
    response: { 200: purchaseResponseSchema, ...errorResponses(400, 401, 403, 502, 503) },
  };
  api.post(
    ApiPath.walletPurchase,
    { preValidation: buyerFirst, schema: { ...bearer, ...purchase } },
    async (request, reply) => {
      const { user } = await buyer(request);
      const pack = creditPackageOf(request.body.amount);
      if (!pack) throw refusal(400, 'Unknown credit package.');
      if (!deps.stripe && !deps.testCheckout) throw purchasesUnavailable();
      const base = publicBase(deps.publicUrl);
      const order = await orders.create(user.id, pack, deps.stripe ? 'stripe' : 'test');
      if (!deps.stripe) {
        rememberCheckoutSession(request, reply, deps.publicUrl);
        return { orderId: order.id, checkoutURL: testCheckoutUrl(base, order.id) };
      }
      try {
        const session = await deps.stripe.createCheckout(order, {
          successUrl: returnUrl(base, 'success', order.id),
          cancelUrl: returnUrl(base, 'canceled', order.id),
        });
        await orders.setProviderRef(order.id, session.id);
        request.log.info({ orderId: order.id, session: session.id }, 'checkout started');
        return { orderId: order.id, checkoutURL: session.url };
      } catch (error) {
        request.log.error({ err: error, orderId: order.id }, 'Stripe Checkout Session could not be created');
        await orders.cancelPending(order.id);
        throw refusal(502, 'The payment provider could not start the checkout; please try again.');
      }
    },
  );

  const withdraw = {
    summary: 'Ask to withdraw bought credits',
    body: withdrawRequestBodySchema,
    response: { 200: withdrawRequestResponseSchema, ...errorResponses(400, 401, 403) },
  };
  api.post(
    ApiPath.walletWithdrawRequest,
    { preValidation: buyerFirst, schema: { ...bearer, ...withdraw } },
    async (request) => {
      const { user } = await buyer(request);
      const { body } = request;
      const { premium } = await ledger.balance(user.id);
      if (body.amount > premium) {
        throw refusal(
          400,
          `Only bought (premium) credits can be withdrawn, and you have ${premium}: ask for at most that.`,
        );
      }
      const recorded = await deps.withdrawals.create(user.id, body);
      request.log.info({ user: user.id, amount: body.amount, id: recorded.id }, 'withdraw request recorded');
      return recorded;
    },
  );
}

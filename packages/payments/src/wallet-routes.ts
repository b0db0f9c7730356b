import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ApiPath,
  CREDIT_CURRENCY,
  creditPackageOf,
  purchaseBodySchema,
  purchaseStatusQuerySchema,
  txnListQuerySchema,
  walletBalanceQuerySchema,
  withdrawRequestBodySchema,
  type Balance,
  type PurchaseResponse,
  type PurchaseStatusResponse,
  type TxnListResponse,
  type WalletListResponse,
  type WithdrawRequestResponse,
} from '@xtalk/protocol';
import { rememberCheckoutSession } from './checkout-session.js';
import { publicBase, returnUrl, testCheckoutUrl } from './checkout-urls.js';
import { parseOr400, purchasesUnavailable, refusal } from './errors.js';
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

export async function walletRoutes(app: FastifyInstance, deps: WalletRoutesDeps) {
  const { ledger, orders } = deps;

  /** A wallet call without a session says so in its fixed words (docs/product.md). */
  async function signedIn(request: FastifyRequest): Promise<{ user: PaymentUser }> {
    if (!request.headers.authorization) throw refusal(401, 'No session found, please login.');
    return { user: await deps.authenticator.fromRequest(request) };
  }

  async function buyer(request: FastifyRequest): Promise<{ user: PaymentUser }> {
    const auth = await signedIn(request);
    if (auth.user.guest) throw refusal(403, 'Sign in to buy or withdraw credits.');
    return auth;
  }

  app.get(ApiPath.walletBalance, async (request, reply): Promise<Balance> => {
    const { user } = await signedIn(request);
    parseOr400(walletBalanceQuerySchema, request.query);
    reply.header('cache-control', 'no-store');
    return ledger.balance(user.id);
  });

  app.get(ApiPath.walletList, async (request, reply): Promise<WalletListResponse> => {
    const { user } = await signedIn(request);
    reply.header('cache-control', 'no-store');
    return { items: [{ currency: CREDIT_CURRENCY, ...(await ledger.balance(user.id)) }] };
  });

  app.post(ApiPath.walletPurchase, async (request, reply): Promise<PurchaseResponse> => {
    const { user } = await buyer(request);
    const body = parseOr400(purchaseBodySchema, request.body);
    const pack = creditPackageOf(body.amount);
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
  });

  app.get(ApiPath.walletPurchaseStatus, async (request, reply): Promise<PurchaseStatusResponse> => {
    const { user } = await signedIn(request);
    const { orderId } = parseOr400(purchaseStatusQuerySchema, request.query);
    const order = await orders.find(orderId);
    if (!order || order.userId !== user.id) throw refusal(404, 'No such order.');
    reply.header('cache-control', 'no-store');
    return { orderId: order.id, status: order.status };
  });

  app.get(ApiPath.walletTxnList, async (request, reply): Promise<TxnListResponse> => {
    const { user } = await signedIn(request);
    const query = parseOr400(txnListQuerySchema, request.query);
    reply.header('cache-control', 'no-store');
    return { items: await ledger.list(user.id, query), page: query.page, limit: query.limit };
  });

  app.post(ApiPath.walletWithdrawRequest, async (request): Promise<WithdrawRequestResponse> => {
    const { user } = await buyer(request);
    const body = parseOr400(withdrawRequestBodySchema, request.body);
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
  });
}

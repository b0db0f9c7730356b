import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiSecurity,
  ApiTag,
  creditPackageOf,
  errorResponses,
  purchaseResponseSchema,
  purchaseStatusQuerySchema,
  serverPurchaseBodySchema,
  serverPurchaseListQuerySchema,
  ServerPath,
  serverOrderListResponseSchema,
  serverOrderSchema,
  type OrderStatus,
} from '@xtalk/protocol';
import type { UsersPort } from './ports.js';
import { publicBase, returnUrl, testCheckoutUrl } from './checkout-urls.js';
import { PaymentError, purchasesUnavailable, usePaymentErrors } from './errors.js';
import type { KeyCheck } from './keys.js';
import type { Order, OrdersRepo } from './orders-repo.js';
import type { StripeGateway } from './stripe-gateway.js';

/*
 * Orders started by another server for a player (wallet purchase, purchase status,
 * purchase list): the same orders and checkout as the client's POST /api/wallet/purchase (Stripe when
 * configured, else the TEST MODE page), credited by the same webhook or test-checkout path.
 */

const toApiOrder = (order: Order) => ({
  orderId: order.id,
  gctId: order.userId,
  amount: order.amount,
  priceJpy: order.priceJpy,
  productId: order.productId,
  provider: order.provider,
  status: order.status,
  createdAt: order.createdAt,
});

export async function serverPurchaseRoutes(
  app: FastifyInstance,
  deps: {
    orders: OrdersRepo;
    stripe: StripeGateway | undefined;
    testCheckout: boolean;
    publicUrl: string;
    users: UsersPort;
    serverKey: KeyCheck;
  },
) {
  usePaymentErrors(app);
  const { orders, stripe } = deps;

  async function player(gctId: string): Promise<string> {
    if (!(await deps.users.exists(gctId))) throw new PaymentError(404, 'not_found', `No player ${gctId}.`);
    return gctId;
  }

  const api = app.withTypeProvider<ZodTypeProvider>();
  const keyed = { tags: [ApiTag.payments], security: ApiSecurity.serverKey };
  const hook = { preValidation: deps.serverKey };

  const purchase = {
    summary: 'Start an order for a player: where to pay',
    body: serverPurchaseBodySchema,
    response: { 200: purchaseResponseSchema, ...errorResponses(400, 401, 403, 404, 502, 503) },
  };
  api.post(ServerPath.walletPurchase, { ...hook, schema: { ...keyed, ...purchase } }, async (request) => {
    const { body } = request;
    const pack = creditPackageOf(body.amount);
    if (!pack) throw new PaymentError(400, 'invalid_request', 'amount must be one of 1000, 5000, 20000.');
    if (!stripe && !deps.testCheckout) throw purchasesUnavailable();
    const order = await orders.create(await player(body.gctId), pack, stripe ? 'stripe' : 'test');
    const base = publicBase(deps.publicUrl);
    if (!stripe) return { orderId: order.id, checkoutURL: testCheckoutUrl(base, order.id) };
    try {
      const session = await stripe.createCheckout(order, {
        successUrl: returnUrl(base, 'success', order.id),
        cancelUrl: returnUrl(base, 'canceled', order.id),
      });
      await orders.setProviderRef(order.id, session.id);
      return { orderId: order.id, checkoutURL: session.url };
    } catch (error) {
      request.log.error({ err: error, orderId: order.id }, 'Stripe Checkout Session could not be created');
      await orders.cancelPending(order.id);
      throw new PaymentError(
        502,
        'provider_error',
        'The payment provider could not start the checkout; try again.',
      );
    }
  });

  const status = {
    summary: 'An order and its status',
    querystring: purchaseStatusQuerySchema,
    response: { 200: serverOrderSchema, ...errorResponses(400, 401, 403, 404, 503) },
  };
  api.get(ServerPath.walletPurchaseStatus, { ...hook, schema: { ...keyed, ...status } }, async (request) => {
    const { orderId } = request.query;
    const order = await orders.find(orderId);
    if (!order) throw new PaymentError(404, 'not_found', `No order ${orderId}.`);
    return toApiOrder(order);
  });

  const list = {
    summary: "A player's orders, newest first",
    querystring: serverPurchaseListQuerySchema,
    response: { 200: serverOrderListResponseSchema, ...errorResponses(400, 401, 403, 404, 503) },
  };
  api.get(ServerPath.walletPurchaseList, { ...hook, schema: { ...keyed, ...list } }, async (request) => {
    const { query } = request;
    const statuses: OrderStatus[] = query.status ? [query.status] : ['pending', 'paid', 'canceled'];
    const found = await orders.listForUser(await player(query.gctId), statuses, {
      limit: query.limit,
      offset: query.page * query.limit,
    });
    const items = found.map(toApiOrder);
    return { items, page: query.page, limit: query.limit };
  });
}

import type { FastifyBaseLogger } from 'fastify';
import type { LedgerPort } from './ports.js';
import type { Order, OrdersRepo } from './orders-repo.js';

/*
 * The one path that credits an order: a verified Stripe webhook and the test checkout's Pay both end here.
 * The ledger row's idempotency key is the order id, so however often a payment is reported (Stripe
 * retries, a double click) the buyer is credited once. Credit first, then mark paid: if the process stops
 * in between, the next delivery finds the row and only marks the order.
 */

export type CreditOutcome = 'credited' | 'already_paid' | 'unknown_order';

export function createOrderCrediting(deps: {
  orders: OrdersRepo;
  ledger: LedgerPort;
  logger: FastifyBaseLogger;
}) {
  return async function creditOrder(
    orderId: string,
    via: string,
  ): Promise<{ outcome: CreditOutcome; order?: Order }> {
    const order = await deps.orders.find(orderId);
    if (!order) return { outcome: 'unknown_order' };
    const result = await deps.ledger.credit({
      userId: order.userId,
      key: `order:${order.id}`,
      cause: 'order',
      reference: order.id,
      amount: order.amount,
      part: 'premium',
      kind: 'purchase',
    });
    if (order.status !== 'paid') await deps.orders.markPaid(order.id);
    if (result.applied)
      deps.logger.info({ orderId, userId: order.userId, amount: order.amount, via }, 'order paid');
    return { outcome: result.applied ? 'credited' : 'already_paid', order: { ...order, status: 'paid' } };
  };
}
export type CreditOrder = ReturnType<typeof createOrderCrediting>;

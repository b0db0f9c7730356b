import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { ApiPath } from '@xtalk/protocol';
import type { CreditOrder } from './crediting.js';
import { refusal } from './errors.js';
import type { OrdersRepo } from './orders-repo.js';
import type { StripeGateway } from './stripe-gateway.js';

/*
 * POST /api/payments/stripe/webhook. The signature is checked on the exact bytes Stripe sent (so this
 * route keeps its body raw); a bad or missing one is a 400 and changes nothing. Every delivery with a good
 * signature is answered 2xx, including events we do not use and repeats, since Stripe retries anything
 * else for days; only a failure on our side (the database) answers 500 so that the retry comes.
 */

const MAX_WEBHOOK_BYTES = 1024 * 1024;

export interface StripeWebhookDeps {
  stripe: StripeGateway;
  orders: OrdersRepo;
  creditOrder: CreditOrder;
}

export async function stripeWebhookRoutes(app: FastifyInstance, deps: StripeWebhookDeps) {
  // Encapsulated in this plugin: the rest of the API keeps parsing JSON.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_WEBHOOK_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  // Not rate-limited: Stripe retries every unanswered delivery from a few addresses, and only a good
  // signature (checked first) makes a delivery do anything.
  app.post(ApiPath.stripeWebhook, { config: { limit: false }, schema: { hide: true } }, async (request) => {
    const signature = request.headers['stripe-signature'];
    if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
      throw refusal(400, 'A Stripe-Signature header and a body are required.');
    }
    let event: Stripe.Event;
    try {
      event = await deps.stripe.verify(request.body, signature);
    } catch (error) {
      // the reason only: the payload of a forged delivery is not worth keeping in the logs
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      request.log.warn({ reason }, 'Stripe webhook refused: bad signature');
      throw refusal(400, 'The Stripe signature does not match this payload.');
    }
    await handle(event, request.log);
    return { received: true };
  });

  async function handle(event: Stripe.Event, log: FastifyInstance['log']): Promise<void> {
    if (
      event.type !== 'checkout.session.completed' &&
      event.type !== 'checkout.session.async_payment_succeeded' &&
      event.type !== 'checkout.session.expired'
    ) {
      log.debug({ type: event.type, id: event.id }, 'Stripe event ignored');
      return;
    }
    const session = event.data.object;
    const orderId = session.metadata?.orderId;
    const order = orderId ? await deps.orders.find(orderId) : undefined;
    if (!order || order.provider !== 'stripe') {
      log.warn({ type: event.type, id: event.id, orderId }, 'Stripe event for no order of ours; ignored');
      return;
    }
    if (order.providerRef && order.providerRef !== session.id) {
      log.warn({ orderId, session: session.id }, 'Stripe event for another session of this order; ignored');
      return;
    }
    if (event.type === 'checkout.session.expired') {
      if (await deps.orders.cancelPending(order.id))
        log.info({ orderId }, 'order canceled (session expired)');
      return;
    }
    // A completed session may still await a delayed payment method; that one arrives as async_payment_succeeded.
    if (session.payment_status === 'unpaid') {
      log.info({ orderId }, 'checkout completed; payment still pending');
      return;
    }
    const { outcome } = await deps.creditOrder(order.id, `stripe:${event.id}`);
    log.info({ orderId, event: event.id, outcome }, 'Stripe payment handled');
  }
}

import type Stripe from 'stripe';
import { lazyModule } from './lazy-module.js';
import type { Order } from './orders-repo.js';

/*
 * Stripe through its official SDK: a Checkout Session per order with the price given inline (JPY,
 * price_data), so an operator needs no products set up in Stripe's dashboard, and webhook events verified
 * against the endpoint's signing secret on the raw body. STRIPE_API_URL is split into the SDK's
 * host/port/protocol options, so tests (and operators) can point it at another Stripe-compatible server.
 */

export interface StripeGatewayOptions {
  secretKey: string;
  webhookSecret: string;
  apiUrl: string;
}

export interface CheckoutUrls {
  successUrl: string;
  cancelUrl: string;
}

export function createStripeGateway(options: StripeGatewayOptions) {
  const api = new URL(options.apiUrl);
  const protocol = api.protocol === 'http:' ? 'http' : 'https';
  // the SDK is loaded only when Stripe is configured, in the background (decision 0116); a failed load
  // is reported by the first checkout or webhook, which tries again
  const client = lazyModule(async () => {
    const { default: StripeSdk } = await import('stripe');
    return new StripeSdk(options.secretKey, {
      host: api.hostname,
      port: api.port || (protocol === 'http' ? 80 : 443),
      protocol,
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
    });
  });

  client().catch(() => undefined);

  return {
    async createCheckout(order: Order, urls: CheckoutUrls): Promise<{ id: string; url: string }> {
      const stripe = await client();
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: 'jpy',
                unit_amount: order.priceJpy,
                product_data: { name: `XTalk ${order.amount.toLocaleString('en-US')} credits` },
              },
            },
          ],
          metadata: { orderId: order.id },
          client_reference_id: order.id,
          success_url: urls.successUrl,
          cancel_url: urls.cancelUrl,
        },
        // a retried create (network) returns the same session instead of a second one
        { idempotencyKey: `checkout:${order.id}` },
      );
      if (!session.url) throw new Error('Stripe returned a Checkout Session without a url.');
      return { id: session.id, url: session.url };
    },

    /** The event, if `signature` is Stripe's for exactly these bytes; throws otherwise. */
    async verify(rawBody: Buffer, signature: string): Promise<Stripe.Event> {
      return (await client()).webhooks.constructEvent(rawBody, signature, options.webhookSecret);
    },
  };
}
export type StripeGateway = ReturnType<typeof createStripeGateway>;

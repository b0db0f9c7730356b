import type { FastifyInstance } from 'fastify';
import { createOrderCrediting } from './crediting.js';
import { useWalletErrors } from './errors.js';
import type { PaymentsParts } from './options.js';
import { stripeWebhookRoutes } from './stripe-webhook.js';
import { testCheckoutRoutes } from './test-checkout.js';
import { walletRoutes } from './wallet-routes.js';
import { createWithdrawRequests } from './withdraw-requests.js';

/**
 * Buying credits: the wallet API, and either Stripe (checkout + webhook), the TEST MODE checkout when it
 * is on, or no purchases at all.
 */
export async function buyingRoutes(app: FastifyInstance, options: PaymentsParts) {
  useWalletErrors(app);
  const { orders, stripe } = options;
  const creditOrder = createOrderCrediting({ orders, ledger: options.ledger, logger: app.log });
  await app.register(walletRoutes, {
    authenticator: options.authenticator,
    ledger: options.ledger,
    orders,
    withdrawals: createWithdrawRequests(options.db, options.clock),
    stripe,
    testCheckout: options.testCheckout,
    publicUrl: options.publicUrl,
  });
  if (stripe) {
    await app.register(stripeWebhookRoutes, { stripe, orders, creditOrder });
    app.log.info('payments: Stripe Checkout');
  } else if (options.testCheckout) {
    const { authenticator, publicUrl } = options;
    await app.register(testCheckoutRoutes, { orders, creditOrder, authenticator, publicUrl });
    // said once, at start, where an operator looks: every signed-in player can now buy credits for nothing
    app.log.warn(
      'payments: TEST MODE checkout is on (TEST_CHECKOUT): Pay credits orders without taking money; set Stripe or TEST_CHECKOUT=off where credits are worth something',
    );
  } else {
    app.log.info('payments: purchases are not available (no Stripe configured, TEST_CHECKOUT=off)');
  }
}

import type { FastifyInstance } from 'fastify';
import { createOrderCrediting } from './crediting.js';
import { useWalletErrors } from './errors.js';
import type { PaymentsParts } from './options.js';
import { stripeWebhookRoutes } from './stripe-webhook.js';
import { testCheckoutRoutes } from './test-checkout.js';
import { walletRoutes } from './wallet-routes.js';
import { createWithdrawRequests } from './withdraw-requests.js';

/** Buying credits: the wallet API, and either Stripe (checkout + webhook) or the test checkout. */
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
    publicUrl: options.publicUrl,
  });
  if (stripe) await app.register(stripeWebhookRoutes, { stripe, orders, creditOrder });
  else await app.register(testCheckoutRoutes, { orders, creditOrder, publicUrl: options.publicUrl });
  app.log.info(stripe ? 'payments: Stripe Checkout' : 'payments: TEST MODE checkout (no Stripe configured)');
}

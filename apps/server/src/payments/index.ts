import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../accounts/sessions/authenticate.js';
import type { Clock } from '../clock.js';
import type { Ledger } from '../credits/index.js';
import type { Db } from '../store/db.js';
import { createOrderCrediting } from './crediting.js';
import { createOrdersRepo } from './orders-repo.js';
import { createStripeGateway } from './stripe-gateway.js';
import { stripeWebhookRoutes } from './stripe-webhook.js';
import { testCheckoutRoutes } from './test-checkout.js';
import { walletRoutes } from './wallet-routes.js';
import { createWithdrawRequests } from './withdraw-requests.js';

export { createOrderCrediting, type CreditOrder, type CreditOutcome } from './crediting.js';
export { createOrdersRepo, type Order, type OrdersRepo, type PaymentProvider } from './orders-repo.js';
export { createWithdrawRequests, type WithdrawRequests } from './withdraw-requests.js';

export interface PaymentsOptions {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  authenticator: Authenticator;
  publicUrl: string | undefined;
  /** Both set: Stripe Checkout and its webhook; unset: the built-in TEST MODE checkout. */
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string } | undefined;
}

/** Buying credits: the wallet API, and either Stripe (checkout + webhook) or the test checkout. */
export async function paymentsRoutes(app: FastifyInstance, options: PaymentsOptions) {
  const orders = createOrdersRepo(options.db, options.clock);
  const creditOrder = createOrderCrediting({ orders, ledger: options.ledger, logger: app.log });
  const stripe = options.stripe ? createStripeGateway(options.stripe) : undefined;
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

import type { FastifyInstance } from 'fastify';
import { paymentAdminRoutes } from './admin-routes.js';
import { keyCheck } from './keys.js';
import type { PaymentsParts } from './options.js';
import { storePurchaseRoutes } from './purchase-routes.js';
import { serverPurchaseRoutes } from './server-purchase-routes.js';
import { txnServerRoutes } from './server-routes.js';
import { createStorePurchasesRepo } from './store-purchases-repo.js';
import { createStorePurchases } from './store-purchases.js';
import { createStoreVerifiers } from './store-verify/index.js';
import { walletServerRoutes } from './wallet-server-routes.js';

/*
 * The payment service's server and admin API: app-store purchases, and the server-side wallet,
 * transaction, order and withdraw-request calls, all on top of the ledger port. Each part installs the
 * payment error shape in its own scope.
 */
export async function paymentServiceRoutes(app: FastifyInstance, deps: PaymentsParts) {
  const serverKey = keyCheck({
    header: 'x-server-key',
    key: deps.serverKey,
    name: 'Payment server',
    setting: 'PAYMENT_SERVER_KEY',
  });
  const adminKey = keyCheck({
    header: 'x-admin-key',
    key: deps.adminKey,
    name: 'Admin',
    setting: 'ADMIN_API_KEY',
  });
  const repo = createStorePurchasesRepo(deps.db, deps.clock);
  const service = createStorePurchases({
    purchases: repo,
    ledger: deps.ledger,
    users: deps.users,
    verifiers: createStoreVerifiers(deps),
  });
  await app.register(storePurchaseRoutes, { service, repo, serverKey });
  await app.register(paymentAdminRoutes, { service, repo, adminKey });
  const server = { db: deps.db, clock: deps.clock, ledger: deps.ledger, users: deps.users, serverKey };
  await app.register(walletServerRoutes, server);
  await app.register(txnServerRoutes, server);
  await app.register(serverPurchaseRoutes, {
    ...server,
    orders: deps.orders,
    stripe: deps.stripe,
    testCheckout: deps.testCheckout,
    publicUrl: deps.publicUrl,
  });
}

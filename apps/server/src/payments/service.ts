import type { FastifyInstance } from 'fastify';
import type { UsersRepo } from '../accounts/users/users-repo.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Ledger } from '../credits/index.js';
import type { Db } from '../store/db.js';
import { paymentAdminRoutes } from './admin-routes.js';
import { keyCheck } from './keys.js';
import { serverPurchaseRoutes } from './server-purchase-routes.js';
import { txnServerRoutes } from './server-routes.js';
import { walletServerRoutes } from './wallet-server-routes.js';
import { storePurchaseRoutes } from './purchase-routes.js';
import { createStorePurchasesRepo } from './store-purchases-repo.js';
import { createStorePurchases } from './store-purchases.js';
import { createStoreVerifiers } from './store-verify/index.js';

/*
 * The payment service's server and admin API: app-store purchases, and the server-side
 * wallet, transaction and withdraw-request calls, all on top of the credits ledger. app.ts registers
 * this one plugin; each part installs the payment error shape in its own scope.
 */
export async function paymentServiceRoutes(
  app: FastifyInstance,
  deps: {
    config: Config;
    db: Db;
    clock: Clock;
    ledger: Ledger;
    users: UsersRepo;
  },
) {
  const { config } = deps;
  const serverKey = keyCheck({
    header: 'x-server-key',
    key: config.PAYMENT_SERVER_KEY,
    name: 'Payment server',
    setting: 'PAYMENT_SERVER_KEY',
  });
  const adminKey = keyCheck({
    header: 'x-admin-key',
    key: config.ADMIN_API_KEY,
    name: 'Admin',
    setting: 'ADMIN_API_KEY',
  });
  const repo = createStorePurchasesRepo(deps.db, deps.clock);
  const service = createStorePurchases({
    purchases: repo,
    ledger: deps.ledger,
    users: deps.users,
    verifiers: createStoreVerifiers(config),
  });
  await app.register(storePurchaseRoutes, { service, repo, serverKey });
  await app.register(paymentAdminRoutes, { service, repo, adminKey });
  const server = { db: deps.db, clock: deps.clock, ledger: deps.ledger, users: deps.users, serverKey };
  await app.register(walletServerRoutes, server);
  await app.register(txnServerRoutes, server);
  await app.register(serverPurchaseRoutes, { ...server, config });
}

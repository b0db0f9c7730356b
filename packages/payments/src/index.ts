/*
 * @xtalk/payments: the payment service as a Fastify plugin over ports (README.md). A server mounts
 * `paymentRoutes` with its database, clock, ledger, authenticator and users; `./standalone` runs it alone.
 */
export { paymentRoutes } from './routes.js';
export type { PaymentsOptions } from './options.js';
export {
  LedgerRefusal,
  type AuthenticatorPort,
  type BalancePart,
  type Clock,
  type Db,
  type LedgerEntry,
  type LedgerPort,
  type LedgerResult,
  type PaymentUser,
  type Queryable,
  type SpendResult,
  type UsersPort,
} from './ports.js';
export { PaymentError } from './errors.js';
export { PAYMENT_API_EXAMPLES } from './api-examples/index.js';
export { createStoreVerifiers, StoreVerifyError, type StoreVerifier } from './store-verify/index.js';
export { ORDERS_AND_WITHDRAWALS_SQL, SERVICE_TABLES_SQL } from './schema.js';
export { ordersOf, pseudonymisePaymentRecords } from './erased-players.js';

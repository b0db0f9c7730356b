import type { OrdersRepo } from './orders-repo.js';
import type { AuthenticatorPort, Clock, Db, LedgerPort, UsersPort } from './ports.js';
import type { StripeGateway } from './stripe-gateway.js';

/** Everything the payment service is given: its ports, and its settings as plain values. */
export interface PaymentsOptions {
  db: Db;
  clock: Clock;
  ledger: LedgerPort;
  authenticator: AuthenticatorPort;
  users: UsersPort;
  /** Where buyers' browsers reach this service: every checkout and return address starts with it. */
  publicUrl: string;
  /** Both secrets: Stripe Checkout and its webhook; unset: the TEST MODE checkout, or no purchases. */
  stripe?: { secretKey: string; webhookSecret: string; apiUrl: string } | undefined;
  /** Without Stripe, whether the TEST MODE checkout (Pay credits without money) runs; else purchases are refused. */
  testCheckout: boolean;
  /** The X-Server-Key of other servers (PAYMENT_SERVER_KEY); unset: their calls answer 503. */
  serverKey?: string | undefined;
  /** The X-Admin-Key of the admin calls (ADMIN_API_KEY); unset: they answer 503. */
  adminKey?: string | undefined;
  /** A service-account key (JSON or a path) and the API's base URL; unset: Google purchases answer 503. */
  googlePlay?: { serviceAccount: string; apiUrl: string } | undefined;
  /** Checks Facebook's signed requests; unset: Facebook purchases answer 503. */
  facebookAppSecret?: string | undefined;
}

/** The options as the service's parts see them: with the orders and the one Stripe gateway built. */
export type PaymentsParts = Omit<PaymentsOptions, 'stripe'> & {
  orders: OrdersRepo;
  /** Undefined: test mode. */
  stripe: StripeGateway | undefined;
};

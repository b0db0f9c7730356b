import fp from 'fastify-plugin';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { paymentsRoutes } from './index.js';
import { paymentServiceRoutes } from './service.js';

/* Buying credits (wallet, checkout, Stripe) and the payment service's server and admin calls. */

export const paymentsPlugin = fp<{ config: Config; clock: Clock }>(
  async (app, { config, clock }) => {
    const db = app.xtalkDb;
    const { ledger } = app.xtalkCredits;
    const { users, authenticator } = app.xtalkAuth;
    await app.register(paymentServiceRoutes, { config, db, clock, ledger, users });
    await app.register(paymentsRoutes, {
      db,
      clock,
      ledger,
      authenticator,
      publicUrl: config.PUBLIC_URL,
      stripe:
        config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
          ? {
              secretKey: config.STRIPE_SECRET_KEY,
              webhookSecret: config.STRIPE_WEBHOOK_SECRET,
              apiUrl: config.STRIPE_API_URL,
            }
          : undefined,
    });
  },
  { name: 'xtalk-payments', dependencies: ['xtalk-store', 'xtalk-auth', 'xtalk-credits'] },
);

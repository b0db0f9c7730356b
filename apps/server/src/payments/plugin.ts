import fp from 'fastify-plugin';
import { paymentRoutes } from '@xtalk/payments';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { authenticatorPort, ledgerPort, usersPort } from './ports.js';

/*
 * The payment service (@xtalk/payments) mounted on this server: buying credits (wallet, checkout, Stripe)
 * and the server and admin API, over this server's database, ledger, authenticator and users.
 */

export const paymentsPlugin = fp<{ config: Config; clock: Clock }>(
  async (app, { config, clock }) => {
    const db = app.xtalkDb;
    const { users, authenticator } = app.xtalkAuth;
    await app.register(paymentRoutes, {
      db,
      clock,
      ledger: ledgerPort(app.xtalkCredits.ledger, db),
      authenticator: authenticatorPort(authenticator),
      users: usersPort(users),
      publicUrl: config.PUBLIC_URL,
      stripe:
        config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
          ? {
              secretKey: config.STRIPE_SECRET_KEY,
              webhookSecret: config.STRIPE_WEBHOOK_SECRET,
              apiUrl: config.STRIPE_API_URL,
            }
          : undefined,
      testCheckout: config.TEST_CHECKOUT === 'on',
      serverKey: config.PAYMENT_SERVER_KEY,
      adminKey: config.ADMIN_API_KEY,
      googlePlay: config.GOOGLE_PLAY_SERVICE_ACCOUNT
        ? { serviceAccount: config.GOOGLE_PLAY_SERVICE_ACCOUNT, apiUrl: config.GOOGLE_PLAY_API_URL }
        : undefined,
      facebookAppSecret: config.FACEBOOK_APP_SECRET,
    });
  },
  { name: 'xtalk-payments', dependencies: ['xtalk-store', 'xtalk-auth', 'xtalk-credits'] },
);

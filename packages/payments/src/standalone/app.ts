import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { httpErrorCodeOf } from '@xtalk/protocol';
import { errorBody, PaymentError } from '../errors.js';
import type { PaymentsOptions } from '../options.js';
import type { AuthenticatorPort, Clock, LedgerPort, UsersPort } from '../ports.js';
import { paymentRoutes } from '../routes.js';
import { anyPlayer, sessionTokenAuthenticator } from './auth.js';
import { migrateStandalone, openStandaloneDb, type StandaloneDb } from './db.js';
import { createStandaloneLedger } from './ledger.js';
import type { StandaloneSettings } from './settings.js';

/*
 * The payment service on its own: its database (migrated), its own ledger, XTalk session tokens for
 * players, and the product's error shape at the root for whatever the service's scopes pass on.
 */

export interface PaymentService {
  app: FastifyInstance;
  db: StandaloneDb;
  ledger: LedgerPort;
  close(): Promise<void>;
}

const INTERNAL_MESSAGE = 'Something went wrong on the server; please try again.';

/** The product's shape for errors no route scope answered: Fastify's own refusals and the unexpected. */
function rootErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = Number(error.statusCode);
    const statusCode = Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500;
    if (statusCode >= 500 && !(error instanceof PaymentError)) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(statusCode).send(errorBody(statusCode, INTERNAL_MESSAGE, 'internal'));
    }
    // Fastify's own codes (FST_ERR_CTP_INVALID_JSON_BODY...) say little to a client; the status's does
    const own = typeof error.code === 'string' && !error.code.startsWith('FST_') ? error.code : undefined;
    const message = error.message || 'Invalid request.';
    return reply.code(statusCode).send(errorBody(statusCode, message, own ?? httpErrorCodeOf(statusCode)));
  });
}

export function optionsOf(
  settings: StandaloneSettings,
): Omit<PaymentsOptions, 'db' | 'clock' | 'ledger' | 'authenticator' | 'users'> {
  return {
    publicUrl: settings.PUBLIC_URL,
    stripe:
      settings.STRIPE_SECRET_KEY && settings.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: settings.STRIPE_SECRET_KEY,
            webhookSecret: settings.STRIPE_WEBHOOK_SECRET,
            apiUrl: settings.STRIPE_API_URL,
          }
        : undefined,
    serverKey: settings.PAYMENT_SERVER_KEY,
    adminKey: settings.ADMIN_API_KEY,
    googlePlay: settings.GOOGLE_PLAY_SERVICE_ACCOUNT
      ? { serviceAccount: settings.GOOGLE_PLAY_SERVICE_ACCOUNT, apiUrl: settings.GOOGLE_PLAY_API_URL }
      : undefined,
    facebookAppSecret: settings.FACEBOOK_APP_SECRET,
  };
}

/** Builds (without listening) the standalone service; `ports` replace its players and authenticator. */
export async function buildPaymentService(
  settings: StandaloneSettings,
  ports: { clock?: Clock; users?: UsersPort; authenticator?: AuthenticatorPort; logger?: boolean } = {},
): Promise<PaymentService> {
  const db = await openStandaloneDb({ databaseUrl: settings.DATABASE_URL, dataDir: settings.DATA_DIR });
  await migrateStandalone(db);
  const clock = ports.clock ?? { now: () => Date.now() };
  const ledger = createStandaloneLedger(db, clock, { openingFree: settings.OPENING_FREE_CREDITS });
  const app = Fastify({ logger: ports.logger ?? { level: settings.LOG_LEVEL } });
  rootErrors(app);
  await app.register(paymentRoutes, {
    ...optionsOf(settings),
    db,
    clock,
    ledger,
    authenticator: ports.authenticator ?? sessionTokenAuthenticator(settings.AUTH_SECRET),
    users: ports.users ?? anyPlayer,
  });
  await app.ready();
  return {
    app,
    db,
    ledger,
    async close() {
      await app.close();
      await db.close();
    },
  };
}

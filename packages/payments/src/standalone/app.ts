import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { ApiTag, httpErrorCodeOf } from '@xtalk/protocol';
import { registerErrorShape, registerOpenApi } from '@xtalk/service-base';
import { PAYMENT_API_EXAMPLES } from '../api-examples/index.js';
import { PaymentError } from '../errors.js';
import type { PaymentsOptions } from '../options.js';
import type { AuthenticatorPort, Clock, LedgerPort, UsersPort } from '../ports.js';
import { paymentRoutes } from '../routes.js';
import { anyPlayer, sessionTokenAuthenticator } from './auth.js';
import { migrateStandalone, openStandaloneDb, type StandaloneDb } from './db.js';
import { createStandaloneLedger } from './ledger.js';
import type { StandaloneSettings } from './settings.js';

/*
 * The payment service on its own: its database (migrated), its own ledger, XTalk session tokens for
 * players, the product's error shape at the root for whatever the service's scopes pass on, and the
 * OpenAPI document of its routes.
 */

export interface PaymentService {
  app: FastifyInstance;
  db: StandaloneDb;
  ledger: LedgerPort;
  close(): Promise<void>;
}

/** The product's shape for errors no route scope answered: Fastify's own refusals and the unexpected. */
const rootErrors = (app: FastifyInstance) =>
  registerErrorShape(app, {
    deliberate: (error) => error instanceof PaymentError,
    codeOf: httpErrorCodeOf,
    internalCode: 'internal',
  });

export function optionsOf(
  settings: StandaloneSettings,
): Omit<PaymentsOptions, 'db' | 'clock' | 'ledger' | 'authenticator' | 'users'> {
  return {
    publicUrl: settings.PUBLIC_URL,
    testCheckout: settings.TEST_CHECKOUT === 'on',
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

/**
 * Builds (without listening) the standalone service; `ports` replace its players and authenticator, and
 * `databaseSnapshot` is what a new embedded database starts from (the tests' migrated one).
 */
export async function buildPaymentService(
  settings: StandaloneSettings,
  ports: {
    clock?: Clock;
    users?: UsersPort;
    authenticator?: AuthenticatorPort;
    logger?: boolean;
    databaseSnapshot?: Uint8Array | undefined;
    /** Told of every route as it is added (tests: the route table the document must match). */
    onRoute?: (route: RouteOptions) => void;
  } = {},
): Promise<PaymentService> {
  const db = await openStandaloneDb({
    databaseUrl: settings.DATABASE_URL,
    dataDir: settings.DATA_DIR,
    snapshot: ports.databaseSnapshot,
  });
  await migrateStandalone(db);
  const clock = ports.clock ?? { now: () => Date.now() };
  const ledger = createStandaloneLedger(db, clock, { openingFree: settings.OPENING_FREE_CREDITS });
  const app = Fastify({ logger: ports.logger ?? { level: settings.LOG_LEVEL } });
  if (ports.onRoute) app.addHook('onRoute', ports.onRoute);
  rootErrors(app);
  // its own document, of its own routes (decision 0224)
  await registerOpenApi(app, {
    title: 'XTalk payment service',
    version: '1.0.0',
    description:
      'Buying credits, and the server and admin API: app-store purchases, wallets, transactions, withdraw requests.',
    serverUrl: settings.PUBLIC_URL,
    tags: [ApiTag.credits, ApiTag.payments],
    examples: PAYMENT_API_EXAMPLES,
  });
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

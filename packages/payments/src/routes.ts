import type { FastifyInstance } from 'fastify';
import { useZodSchemas } from '@xtalk/service-base';
import type { PaymentsOptions } from './options.js';
import { createOrdersRepo } from './orders-repo.js';
import { paymentServiceRoutes } from './service.js';
import { createStripeGateway } from './stripe-gateway.js';
import { buyingRoutes } from './wallet.js';

/*
 * The whole payment service as one Fastify plugin: buying credits (the players' wallet calls and the
 * checkout) and the server and admin API. Register it in the scope that should answer it; it adds no
 * decorator, and every route's path comes from @xtalk/protocol.
 */
export async function paymentRoutes(app: FastifyInstance, options: PaymentsOptions) {
  useZodSchemas(app);
  const orders = createOrdersRepo(options.db, options.clock);
  // one gateway for the players' checkouts and the ones other servers start
  const parts = { ...options, orders, stripe: options.stripe && createStripeGateway(options.stripe) };
  await app.register(paymentServiceRoutes, parts);
  await app.register(buyingRoutes, parts);
}

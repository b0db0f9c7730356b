import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminPurchaseDeleteBodySchema,
  adminPurchaseListBodySchema,
  ApiSecurity,
  ApiTag,
  errorResponses,
  PaymentPath,
  storePurchaseListResponseSchema,
  storePurchaseResponseSchema,
} from '@xtalk/protocol';
import { usePaymentErrors } from './errors.js';
import type { KeyCheck } from './keys.js';
import { toApiPurchase, type StorePurchasesRepo } from './store-purchases-repo.js';
import type { StorePurchases } from './store-purchases.js';

/*
 * The payment service's admin calls (an administrator lists and deletes purchases), behind
 * the admin key of the player API. Delete revokes: the purchase's credits leave through the ledger.
 */
export async function paymentAdminRoutes(
  app: FastifyInstance,
  deps: { service: StorePurchases; repo: StorePurchasesRepo; adminKey: KeyCheck },
) {
  usePaymentErrors(app);
  const api = app.withTypeProvider<ZodTypeProvider>();
  const admin = { tags: [ApiTag.payments], security: ApiSecurity.adminKey };

  api.post(
    PaymentPath.adminList,
    {
      preValidation: deps.adminKey,
      schema: {
        ...admin,
        summary: "List a player's app-store purchases, revoked ones too",
        body: adminPurchaseListBodySchema,
        response: { 200: storePurchaseListResponseSchema, ...errorResponses(400, 401, 403, 503) },
      },
    },
    async (request) => {
      const { gctId, limit, page } = request.body;
      const items = await deps.repo.list({ userId: gctId as string, includeRevoked: true, limit, page });
      return { items: items.map(toApiPurchase), page, limit };
    },
  );

  api.delete(
    PaymentPath.adminDelete,
    {
      preValidation: deps.adminKey,
      schema: {
        ...admin,
        summary: 'Revoke a purchase: its credits leave through the ledger',
        body: adminPurchaseDeleteBodySchema,
        response: { 200: storePurchaseResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request) => ({
      purchase: toApiPurchase(await deps.service.revoke(await deps.service.named(request.body))),
    }),
  );
}

import type { FastifyInstance } from 'fastify';
import {
  adminPurchaseDeleteBodySchema,
  adminPurchaseListBodySchema,
  PaymentPath,
  type StorePurchaseListResponse,
  type StorePurchaseResponse,
} from '@xtalk/protocol';
import { parseOr400, usePaymentErrors } from './errors.js';
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

  app.post(PaymentPath.adminList, async (request): Promise<StorePurchaseListResponse> => {
    deps.adminKey(request);
    const { gctId, limit, page } = parseOr400(adminPurchaseListBodySchema, request.body);
    const items = await deps.repo.list({ userId: gctId as string, includeRevoked: true, limit, page });
    return { items: items.map(toApiPurchase), page, limit };
  });

  app.delete(PaymentPath.adminDelete, async (request): Promise<StorePurchaseResponse> => {
    deps.adminKey(request);
    const body = parseOr400(adminPurchaseDeleteBodySchema, request.body);
    return { purchase: toApiPurchase(await deps.service.revoke(await deps.service.named(body))) };
  });
}

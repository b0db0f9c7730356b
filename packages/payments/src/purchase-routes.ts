import type { FastifyInstance } from 'fastify';
import {
  PaymentPath,
  purchaseConsumeBodySchema,
  purchaseConsumeErrorBodySchema,
  purchaseListQuerySchema,
  purchaseVerifyBodySchema,
  type PurchaseVerifyResponse,
  type StorePlatform,
  type StorePurchaseListResponse,
  type StorePurchaseResponse,
} from '@xtalk/protocol';
import { parseOr400, usePaymentErrors } from './errors.js';
import type { KeyCheck } from './keys.js';
import { toApiPurchase, type StorePurchasesRepo } from './store-purchases-repo.js';
import type { StorePurchases } from './store-purchases.js';

/*
 * The app-store purchase calls of the payment service: verify (server key, or the
 * anonymous form that credits only when it names a player), list, consume and consume-error.
 */

const serverVerifyBody = purchaseVerifyBodySchema({ gctIdRequired: true });
const anonymousVerifyBody = purchaseVerifyBodySchema({ gctIdRequired: false });

export async function storePurchaseRoutes(
  app: FastifyInstance,
  deps: { service: StorePurchases; repo: StorePurchasesRepo; serverKey: KeyCheck },
) {
  usePaymentErrors(app);
  const { service } = deps;

  app.post(PaymentPath.verify, async (request): Promise<PurchaseVerifyResponse> => {
    deps.serverKey(request);
    return service.verify(parseOr400(serverVerifyBody, request.body));
  });

  app.post(PaymentPath.verifyAnonymous, async (request): Promise<PurchaseVerifyResponse> =>
    service.verify(parseOr400(anonymousVerifyBody, request.body)),
  );

  app.get(PaymentPath.list, async (request): Promise<StorePurchaseListResponse> => {
    deps.serverKey(request);
    const query = parseOr400(purchaseListQuerySchema, request.query);
    const items = await deps.repo.list({
      userId: (query.userId ?? query.gctId) as string,
      appId: query.appId,
      status: query.status,
      limit: query.limit,
      page: query.page,
    });
    return { items: items.map(toApiPurchase), page: query.page, limit: query.limit };
  });

  app.post(PaymentPath.consume, async (request): Promise<StorePurchaseResponse> => {
    deps.serverKey(request);
    const body = parseOr400(purchaseConsumeBodySchema, request.body);
    return { purchase: toApiPurchase(await service.consume(await service.named(body))) };
  });

  app.post(PaymentPath.consumeError, async (request): Promise<StorePurchaseResponse> => {
    deps.serverKey(request);
    const body = parseOr400(purchaseConsumeErrorBodySchema, request.body);
    const purchase = await service.named({ ...body, platform: body.platform as StorePlatform });
    return { purchase: toApiPurchase(await service.consumeError(purchase, (body.error as string).trim())) };
  });
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiSecurity,
  ApiTag,
  errorResponses,
  PaymentPath,
  purchaseConsumeBodySchema,
  purchaseConsumeErrorBodySchema,
  purchaseListQuerySchema,
  purchaseVerifyBodySchema,
  purchaseVerifyResponseSchema,
  storePurchaseListResponseSchema,
  storePurchaseResponseSchema,
  type StorePlatform,
} from '@xtalk/protocol';
import { usePaymentErrors } from './errors.js';
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
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { service } = deps;
  const keyed = { tags: [ApiTag.payments], security: ApiSecurity.serverKey };
  const purchase = { 200: storePurchaseResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 503) };

  api.post(
    PaymentPath.verify,
    {
      preValidation: deps.serverKey,
      schema: {
        ...keyed,
        summary: 'Verify an app-store purchase and credit its player',
        body: serverVerifyBody,
        response: { 200: purchaseVerifyResponseSchema, ...errorResponses(400, 401, 403, 409, 502, 503) },
      },
    },
    async (request) => service.verify(request.body),
  );

  api.post(
    PaymentPath.verifyAnonymous,
    {
      schema: {
        tags: [ApiTag.payments],
        summary: 'Verify an app-store purchase without the server key (credits only a named player)',
        body: anonymousVerifyBody,
        response: { 200: purchaseVerifyResponseSchema, ...errorResponses(400, 409, 502, 503) },
      },
    },
    async (request) => service.verify(request.body),
  );

  api.get(
    PaymentPath.list,
    {
      preValidation: deps.serverKey,
      schema: {
        ...keyed,
        summary: "List a player's app-store purchases",
        querystring: purchaseListQuerySchema,
        response: { 200: storePurchaseListResponseSchema, ...errorResponses(400, 401, 403, 503) },
      },
    },
    async (request) => {
      const { query } = request;
      const items = await deps.repo.list({
        userId: (query.userId ?? query.gctId) as string,
        appId: query.appId,
        status: query.status,
        limit: query.limit,
        page: query.page,
      });
      return { items: items.map(toApiPurchase), page: query.page, limit: query.limit };
    },
  );

  api.post(
    PaymentPath.consume,
    {
      preValidation: deps.serverKey,
      schema: {
        ...keyed,
        summary: 'Mark a purchase consumed (its product was delivered in the game)',
        body: purchaseConsumeBodySchema,
        response: purchase,
      },
    },
    async (request) => ({
      purchase: toApiPurchase(await service.consume(await service.named(request.body))),
    }),
  );

  api.post(
    PaymentPath.consumeError,
    {
      preValidation: deps.serverKey,
      schema: {
        ...keyed,
        summary: 'Record that consuming a purchase failed in the game',
        body: purchaseConsumeErrorBodySchema,
        response: purchase,
      },
    },
    async (request) => {
      const { body } = request;
      const purchase = await service.named({ ...body, platform: body.platform as StorePlatform });
      return {
        purchase: toApiPurchase(await service.consumeError(purchase, (body.error as string).trim())),
      };
    },
  );
}

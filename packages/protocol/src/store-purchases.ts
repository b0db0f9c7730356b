import { z } from 'zod';
import { balanceSchema, CREDIT_PACKAGES } from './wallet.js';

/*
 * App-store purchases (the verify payload, its checks, the payment service's calls): verify (server
 * and anonymous), list, consume, consume-error, and the admin list and delete. The messages are the
 * fixed wording of docs/payment-api.md#app-store-purchases, kept word for word; each check answers one
 * message naming every field it needs.
 */

export const STORE_PLATFORMS = ['google', 'facebook'] as const;
export type StorePlatform = (typeof STORE_PLATFORMS)[number];

export const STORE_PRODUCT_IDS = CREDIT_PACKAGES.map((pack) => pack.productId);

export const PurchaseMessage = {
  google: 'appId, productId and purchaseToken are required.',
  facebook: 'appId, paymentId, productId and signedRequest are required.',
  platform: "platform must be 'google' or 'facebook'.",
  product: `productId must be one of ${STORE_PRODUCT_IDS.join(', ')}.`,
  subscription: 'Subscriptions are not sold; the credit packages are one-time products.',
  list: 'appId and gctId are mandatory',
  consume: 'platform, appId, purchaseToken and gctId are required.',
  consumeError: 'error is required but is empty.',
  adminList: 'gctId is required.',
  adminDelete: 'appId, platform, gctId and purchaseToken are required.',
} as const;

const text = (max = 200) => z.string().max(max).optional();
const missing = (value: string | undefined) => value === undefined || value.trim() === '';

/**
 * POST /api/purchase/verify (server key; gctId required) and POST /api/purchase/verify/a (anonymous;
 * gctId optional: without it the purchase is only checked, nothing is credited).
 * google: the purchase token is the purchase's key; facebook: the payment id is.
 */
export function purchaseVerifyBodySchema(options: { gctIdRequired: boolean }) {
  return z
    .object({
      gctId: text(),
      appId: text(),
      platform: text(40),
      paymentId: text(),
      productId: text(),
      deviceId: text(),
      platformVersion: text(),
      isSubscription: z.boolean().optional(),
      purchaseToken: text(4000),
      signedRequest: text(16_000),
    })
    .superRefine((body, context) => {
      const fail = (message: string) => context.addIssue({ code: 'custom', message });
      if (body.platform === 'google') {
        const needed = [body.appId, body.productId, body.purchaseToken];
        if (options.gctIdRequired) needed.push(body.gctId);
        if (needed.some(missing)) return fail(PurchaseMessage.google);
      } else if (body.platform === 'facebook') {
        const needed = [body.appId, body.paymentId, body.productId, body.signedRequest];
        if (options.gctIdRequired) needed.push(body.gctId);
        if (needed.some(missing)) return fail(PurchaseMessage.facebook);
      } else {
        return fail(PurchaseMessage.platform);
      }
      if (body.isSubscription) return fail(PurchaseMessage.subscription);
      if (!STORE_PRODUCT_IDS.includes(body.productId as never)) fail(PurchaseMessage.product);
    });
}
export type PurchaseVerifyBody = z.infer<ReturnType<typeof purchaseVerifyBodySchema>>;

/** A verified purchase; the same purchase verified again answers the same, crediting nothing twice. */
export const purchaseVerifyResponseSchema = z.object({
  verified: z.literal(true),
  /** Credits this purchase added (on a replay: the ones it added the first time). */
  credited: z.number().int(),
  /** The player's balance now; null when no gctId was given (anonymous check only). */
  balance: balanceSchema.nullable(),
});
export type PurchaseVerifyResponse = z.infer<typeof purchaseVerifyResponseSchema>;

/** credited: verified and paid out; consumed / consume_failed: what the app reported; revoked: by an admin. */
export const STORE_PURCHASE_STATUSES = ['credited', 'consumed', 'consume_failed', 'revoked'] as const;
export type StorePurchaseStatus = (typeof STORE_PURCHASE_STATUSES)[number];

export const storePurchaseSchema = z.object({
  id: z.string(),
  platform: z.enum(STORE_PLATFORMS),
  appId: z.string(),
  gctId: z.string(),
  productId: z.string(),
  /** The purchase's key: Google's purchase token, Facebook's payment id. */
  purchaseToken: z.string(),
  orderId: z.string().nullable(),
  quantity: z.number().int(),
  credits: z.number().int(),
  status: z.enum(STORE_PURCHASE_STATUSES),
  /** The last error the app reported through consume-error. */
  consumeError: z.string().nullable(),
  /** Milliseconds since the epoch. */
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type StorePurchase = z.infer<typeof storePurchaseSchema>;

export const PURCHASE_LIST_DEFAULT_LIMIT = 100;
export const PURCHASE_LIST_MAX_LIMIT = 1000;

export const pageQueryFields = {
  limit: z.coerce.number().int().min(1).max(PURCHASE_LIST_MAX_LIMIT).default(PURCHASE_LIST_DEFAULT_LIMIT),
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
};

/** GET /api/purchase/list?userId&appId&status&limit&page (userId is the gctId; `gctId` is taken too). */
export const purchaseListQuerySchema = z
  .object({
    userId: text(),
    gctId: text(),
    appId: text(),
    status: z.enum(STORE_PURCHASE_STATUSES).optional(),
    ...pageQueryFields,
  })
  .superRefine((query, context) => {
    if (missing(query.appId) || (missing(query.userId) && missing(query.gctId))) {
      context.addIssue({ code: 'custom', message: PurchaseMessage.list });
    }
  });
export type PurchaseListQuery = z.infer<typeof purchaseListQuerySchema>;

export const storePurchaseListResponseSchema = z.object({
  items: z.array(storePurchaseSchema),
  page: z.number().int(),
  limit: z.number().int(),
});
export type StorePurchaseListResponse = z.infer<typeof storePurchaseListResponseSchema>;

const consumeFields = {
  platform: text(40),
  appId: text(),
  purchaseToken: text(4000),
  gctId: text(),
};
const consumeMissing = (body: {
  platform?: string;
  appId?: string;
  purchaseToken?: string;
  gctId?: string;
}) => [body.platform, body.appId, body.purchaseToken, body.gctId].some(missing);

/** POST /api/purchase/consume: the app consumed the purchase at its store. A replay changes nothing. */
export const purchaseConsumeBodySchema = z.object(consumeFields).superRefine((body, context) => {
  if (consumeMissing(body)) context.addIssue({ code: 'custom', message: PurchaseMessage.consume });
  else if (!STORE_PLATFORMS.includes(body.platform as never)) {
    context.addIssue({ code: 'custom', message: PurchaseMessage.platform });
  }
});
export type PurchaseConsumeBody = z.infer<typeof purchaseConsumeBodySchema>;

/** POST /api/purchase/consume-error: the app's consume failed; `error` says how. */
export const purchaseConsumeErrorBodySchema = z
  .object({ ...consumeFields, error: text(2000) })
  .superRefine((body, context) => {
    if (consumeMissing(body)) context.addIssue({ code: 'custom', message: PurchaseMessage.consume });
    else if (!STORE_PLATFORMS.includes(body.platform as never)) {
      context.addIssue({ code: 'custom', message: PurchaseMessage.platform });
    } else if (missing(body.error)) {
      context.addIssue({ code: 'custom', message: PurchaseMessage.consumeError });
    }
  });
export type PurchaseConsumeErrorBody = z.infer<typeof purchaseConsumeErrorBodySchema>;

export const storePurchaseResponseSchema = z.object({ purchase: storePurchaseSchema });
export type StorePurchaseResponse = z.infer<typeof storePurchaseResponseSchema>;

/** POST /api/purchases/list (admin): every purchase of a player, revoked ones too, newest first. */
export const adminPurchaseListBodySchema = z
  .object({ gctId: text(), ...pageQueryFields })
  .superRefine((body, context) => {
    if (missing(body.gctId)) context.addIssue({ code: 'custom', message: PurchaseMessage.adminList });
  });

/**
 * DELETE /api/purchases (admin): revokes a purchase: its credits are taken back through the ledger
 * (a reversal row) and it is never credited again.
 */
export const adminPurchaseDeleteBodySchema = z
  .object({ appId: text(), platform: text(40), gctId: text(), purchaseToken: text(4000) })
  .superRefine((body, context) => {
    if ([body.appId, body.platform, body.gctId, body.purchaseToken].some(missing)) {
      context.addIssue({ code: 'custom', message: PurchaseMessage.adminDelete });
    } else if (!STORE_PLATFORMS.includes(body.platform as never)) {
      context.addIssue({ code: 'custom', message: PurchaseMessage.platform });
    }
  });

/** Paths of the payment service's server and admin calls, under /api. */
export const PaymentPath = {
  verify: '/api/purchase/verify',
  verifyAnonymous: '/api/purchase/verify/a',
  list: '/api/purchase/list',
  consume: '/api/purchase/consume',
  consumeError: '/api/purchase/consume-error',
  adminList: '/api/purchases/list',
  adminDelete: '/api/purchases',
} as const;

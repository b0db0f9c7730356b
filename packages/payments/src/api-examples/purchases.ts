import type { ApiExamples } from '@xtalk/service-base';

/* What the reference page shows for app-store purchases (decision 0244). */

const GCT_ID = 'u_8f2c41d7';
const TOKEN = 'opaque-token-from-google-play.AO-J1Oy3';
const PURCHASE = {
  id: 'sp_71c0d4e2',
  platform: 'google',
  appId: 'com.example.puzzlequest',
  gctId: GCT_ID,
  productId: 'credits_1000',
  purchaseToken: TOKEN,
  orderId: 'GPA.3312-5521-0987-44021',
  quantity: 1,
  credits: 1000,
  status: 'credited',
  consumeError: null,
  createdAt: 1_795_000_000_000,
  updatedAt: 1_795_000_000_000,
} as const;
const CHECK = {
  appId: 'com.example.puzzlequest',
  platform: 'google',
  productId: 'credits_1000',
  purchaseToken: TOKEN,
};
const VERIFY = { gctId: GCT_ID, ...CHECK };
const PAGE = { items: [PURCHASE], page: 0, limit: 100 };

export const PURCHASE_EXAMPLES: ApiExamples = {
  'POST /api/purchase/verify': {
    body: VERIFY,
    200: { verified: true, credited: 1000, balance: { free: 30, premium: 1000 } },
  },
  'POST /api/purchase/verify/a': {
    body: CHECK,
    200: { verified: true, credited: 0, balance: null },
  },
  'GET /api/purchase/list': { 200: PAGE },
  'POST /api/purchase/consume': {
    body: { platform: 'google', appId: VERIFY.appId, purchaseToken: TOKEN, gctId: GCT_ID },
    200: { purchase: { ...PURCHASE, status: 'consumed' } },
  },
  'POST /api/purchase/consume-error': {
    body: {
      platform: 'google',
      appId: VERIFY.appId,
      purchaseToken: TOKEN,
      gctId: GCT_ID,
      error: 'BILLING_UNAVAILABLE',
    },
    200: { purchase: { ...PURCHASE, status: 'consume_failed', consumeError: 'BILLING_UNAVAILABLE' } },
  },
  'POST /api/purchases/list': { body: { gctId: GCT_ID, limit: 100, page: 0 }, 200: PAGE },
  'DELETE /api/purchases': {
    body: { appId: VERIFY.appId, platform: 'google', gctId: GCT_ID, purchaseToken: TOKEN },
    200: { purchase: { ...PURCHASE, status: 'revoked' } },
  },
};

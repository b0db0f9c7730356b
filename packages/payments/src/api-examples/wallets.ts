import type { ApiExamples } from '@xtalk/service-base';

/* What the reference page shows for wallets, transactions, withdraw requests and orders (decision 0244). */

const GCT_ID = 'u_8f2c41d7';
const BALANCE = { free: 30, premium: 500 };
const LEDGER_TXN = {
  id: 'lt_0c5e7a19',
  kind: 'adjustment',
  status: 'completed',
  currency: 't_free',
  amount: 100,
  free: 0,
  premium: 100,
  cause: 'tournament_prize',
  reference: 'cup-2026-11',
  createdAt: 1_795_000_000_000,
} as const;
const ADD = {
  gctId: GCT_ID,
  currency: 't_free',
  amount: 100,
  part: 'premium',
  idempotencyKey: 'prize-cup-2026-11-u_8f2c41d7',
};
const SERVER_TXN = {
  id: 'st_93b1e6d0',
  gctId: GCT_ID,
  amount: -50,
  part: 'premium',
  cause: 'item_purchase',
  reference: 'sword-of-dawn',
  idempotencyKey: 'shop-order-88120',
  status: 'pending',
  ledgerTxnId: null,
  reversalTxnId: null,
  createdAt: 1_795_000_000_000,
  updatedAt: 1_795_000_000_000,
} as const;
const CONFIRMED = {
  txn: { ...SERVER_TXN, status: 'confirmed', ledgerTxnId: 'lt_5f20c8b4' },
  balance: { free: 30, premium: 450 },
};
const WITHDRAW = {
  id: 'wr_2d7f0e61',
  gctId: GCT_ID,
  status: 'pending',
  currency: 't_free',
  amount: 200,
  note: 'Monthly payout',
  decisionNote: null,
  ledgerTxnId: null,
  createdAt: 1_795_000_000_000,
  decidedAt: null,
} as const;
const APPROVED = {
  request: {
    ...WITHDRAW,
    status: 'approved',
    decisionNote: 'Paid by bank transfer',
    ledgerTxnId: 'lt_9a41d2c7',
    decidedAt: 1_795_090_000_000,
  },
  balance: { free: 30, premium: 300 },
};
const ORDER = {
  orderId: 'ord_6e18b2fa',
  gctId: GCT_ID,
  amount: 1000,
  priceJpy: 149,
  productId: 'credits_1000',
  provider: 'stripe',
  status: 'paid',
  createdAt: 1_795_000_000_000,
} as const;
const CHECKOUT = { orderId: ORDER.orderId, checkoutURL: 'https://checkout.stripe.com/c/pay/cs_test_a1b2c3' };

export const WALLET_EXAMPLES: ApiExamples = {
  'POST /api/server/wallet/create': {
    body: { gctId: GCT_ID, currency: 't_free' },
    200: { ...BALANCE, gctId: GCT_ID, currency: 't_free' },
  },
  'GET /api/server/wallet/balance': { 200: BALANCE },
  'GET /api/server/wallet/list': { 200: { items: [{ ...BALANCE, currency: 't_free' }] } },
  'GET /api/server/wallet/filterByBalance': {
    200: { items: [{ ...BALANCE, gctId: GCT_ID, currency: 't_free' }], page: 0, limit: 100 },
  },
  'GET /api/server/wallet/transactions': { 200: { items: [LEDGER_TXN], page: 0, limit: 100 } },
  'POST /api/server/wallet/add': {
    body: { ...ADD, cause: 'tournament_prize', reference: 'cup-2026-11' },
    200: { txn: LEDGER_TXN, balance: { free: 30, premium: 600 }, applied: true },
  },
  'POST /api/server/wallet/withdraw': {
    body: { ...ADD, amount: 50, idempotencyKey: 'shop-order-88119', cause: 'item_purchase' },
    200: {
      txn: {
        ...LEDGER_TXN,
        kind: 'spend',
        amount: -50,
        premium: -50,
        cause: 'item_purchase',
        reference: null,
      },
      balance: { free: 30, premium: 450 },
      applied: true,
    },
  },
  'POST /api/server/txn/create': {
    body: {
      gctId: GCT_ID,
      amount: -50,
      part: 'premium',
      idempotencyKey: 'shop-order-88120',
      cause: 'item_purchase',
      reference: 'sword-of-dawn',
      confirm: false,
    },
    200: { txn: SERVER_TXN, balance: BALANCE },
  },
  'GET /api/server/txn/get': { 200: { txn: SERVER_TXN, balance: BALANCE } },
  'GET /api/server/txn/list': { 200: { items: [SERVER_TXN], page: 0, limit: 100 } },
  'POST /api/server/txn/confirm': { body: { id: SERVER_TXN.id }, 200: CONFIRMED },
  'POST /api/server/txn/revert': {
    body: { id: SERVER_TXN.id },
    200: { txn: { ...CONFIRMED.txn, status: 'reverted', reversalTxnId: 'lt_7d03e9a5' }, balance: BALANCE },
  },
  'POST /api/server/withdraw-request/create': {
    body: { gctId: GCT_ID, currency: 't_free', amount: 200, note: 'Monthly payout' },
    200: { request: WITHDRAW, balance: BALANCE },
  },
  'GET /api/server/withdraw-request/get': { 200: { request: WITHDRAW, balance: BALANCE } },
  'POST /api/server/withdraw-request/approve': {
    body: { id: WITHDRAW.id, note: 'Paid by bank transfer' },
    200: APPROVED,
  },
  'POST /api/server/withdraw-request/reject': {
    body: { id: WITHDRAW.id, note: 'Account under review' },
    200: {
      request: {
        ...WITHDRAW,
        status: 'rejected',
        decisionNote: 'Account under review',
        decidedAt: 1_795_090_000_000,
      },
      balance: BALANCE,
    },
  },
  'POST /api/server/wallet/purchase': {
    body: { gctId: GCT_ID, currency: 't_free', amount: 1000 },
    200: CHECKOUT,
  },
  'GET /api/server/wallet/purchase/status': { 200: ORDER },
  'GET /api/server/wallet/purchase/list': { 200: { items: [ORDER], page: 0, limit: 100 } },
  'GET /api/wallet/balance': { 200: BALANCE },
  'GET /api/wallet/list': { 200: { items: [{ ...BALANCE, currency: 't_free' }] } },
  'GET /api/wallet/purchase/status': { 200: { orderId: ORDER.orderId, status: 'paid' } },
  'GET /api/wallet/txn/list': { 200: { items: [LEDGER_TXN], page: 0, limit: 100 } },
  'POST /api/wallet/purchase': { body: { currency: 't_free', amount: 1000 }, 200: CHECKOUT },
  'POST /api/wallet/withdraw-request': {
    body: { currency: 't_free', amount: 200, note: 'Monthly payout' },
    200: {
      id: WITHDRAW.id,
      status: 'pending',
      currency: 't_free',
      amount: 200,
      createdAt: 1_795_000_000_000,
    },
  },
};

import { z } from 'zod';
import { pageQueryFields } from './store-purchases.js';
import { balanceSchema, CREDIT_CURRENCY, TXN_STATUSES, txnSchema, WITHDRAW_STATUSES } from './wallet.js';

/*
 * The payment service's server calls on wallets, transactions and withdraw requests, under /api/server,
 * with the private key in the header X-Server-Key. Every amount moves through the credits ledger; every
 * call that moves one carries a natural key (`idempotencyKey`, or the id of the transaction or request it
 * acts on), so a retried call moves nothing twice.
 */

const required = (name: string, max = 200) =>
  z
    .string({ message: `${name} is required.` })
    .trim()
    .min(1, { message: `${name} is required.` })
    .max(max);

const gctId = required('gctId');
const currency = z
  .literal(CREDIT_CURRENCY, { message: `currency must be '${CREDIT_CURRENCY}'.` })
  .default(CREDIT_CURRENCY);
const amount = z.coerce
  .number({ message: 'amount must be a positive whole number.' })
  .int({ message: 'amount must be a positive whole number.' })
  .positive({ message: 'amount must be a positive whole number.' })
  .max(100_000_000, { message: 'amount is too large.' });
const part = z.enum(['free', 'premium'], { message: "part must be 'free' or 'premium'." });
const idempotencyKey = required('idempotencyKey');
const cause = z.string().trim().min(1).max(100).optional();
const reference = z.string().max(200).optional();

export const ServerPath = {
  walletCreate: '/api/server/wallet/create',
  walletBalance: '/api/server/wallet/balance',
  walletAdd: '/api/server/wallet/add',
  walletWithdraw: '/api/server/wallet/withdraw',
  walletList: '/api/server/wallet/list',
  walletFilterByBalance: '/api/server/wallet/filterByBalance',
  walletTransactions: '/api/server/wallet/transactions',
  walletPurchase: '/api/server/wallet/purchase',
  walletPurchaseStatus: '/api/server/wallet/purchase/status',
  walletPurchaseList: '/api/server/wallet/purchase/list',
  txnCreate: '/api/server/txn/create',
  txnGet: '/api/server/txn/get',
  txnList: '/api/server/txn/list',
  txnConfirm: '/api/server/txn/confirm',
  txnRevert: '/api/server/txn/revert',
  withdrawCreate: '/api/server/withdraw-request/create',
  withdrawGet: '/api/server/withdraw-request/get',
  withdrawApprove: '/api/server/withdraw-request/approve',
  withdrawReject: '/api/server/withdraw-request/reject',
} as const;

/** A player's wallet: one per currency (today only t_free). */
export const serverWalletSchema = balanceSchema.extend({ gctId: z.string(), currency: z.string() });
export type ServerWallet = z.infer<typeof serverWalletSchema>;

/** POST wallet/create {gctId, currency}: opens (or returns) the wallet; idempotent by nature. */
export const walletCreateBodySchema = z.object({ gctId, currency });
/** GET wallet/balance?gctId&currency -> {free, premium}; GET wallet/list?gctId -> {items}. */
export const serverWalletQuerySchema = z.object({ gctId, currency });

/** POST wallet/add: credits one part (premium unless told). */
export const walletAddBodySchema = z.object({
  gctId,
  currency,
  amount,
  part: part.default('premium'),
  idempotencyKey,
  cause,
  reference,
});
export type WalletAddBody = z.infer<typeof walletAddBodySchema>;

/** POST wallet/withdraw: takes credits, free first then premium, or from the one part named. */
export const walletWithdrawBodySchema = z.object({
  gctId,
  currency,
  amount,
  part: part.optional(),
  idempotencyKey,
  cause,
  reference,
});
export type WalletWithdrawBody = z.infer<typeof walletWithdrawBodySchema>;

/** A change applied through the ledger: the row and the balance after it. */
export const ledgerChangeResponseSchema = z.object({
  txn: txnSchema,
  balance: balanceSchema,
  /** False when the idempotency key was seen before: nothing moved now. */
  applied: z.boolean(),
});

/** GET wallet/filterByBalance?min&max&part&limit&page: wallets whose balance (total, or one part) is in range. */
export const walletFilterQuerySchema = z
  .object({
    min: z.coerce.number().int().min(0).optional(),
    max: z.coerce.number().int().min(0).optional(),
    part: z
      .enum(['free', 'premium', 'total'], { message: "part must be 'free', 'premium' or 'total'." })
      .default('total'),
    ...pageQueryFields,
  })
  .refine((query) => query.min === undefined || query.max === undefined || query.min <= query.max, {
    message: 'min must not be above max.',
  });
export type WalletFilterQuery = z.infer<typeof walletFilterQuerySchema>;

export const walletPageResponseSchema = z.object({
  items: z.array(serverWalletSchema),
  page: z.number().int(),
  limit: z.number().int(),
});

/** GET wallet/transactions?gctId&status&limit&page: the ledger rows of a player, newest first. */
export const walletTransactionsQuerySchema = z.object({
  gctId,
  status: z.enum(TXN_STATUSES).optional(),
  ...pageQueryFields,
});

/** POST wallet/purchase {gctId, currency, amount}: an order for the player, as the client's purchase. */
export const serverPurchaseBodySchema = z.object({ gctId, currency, amount: z.number() });
/** GET wallet/purchase/list?gctId&status&limit&page: the player's orders, newest first. */
export const serverPurchaseListQuerySchema = z.object({
  gctId,
  status: z.enum(['pending', 'paid', 'canceled']).optional(),
  ...pageQueryFields,
});

// ------------------------------------------------------------------------------------ transactions

/** pending: recorded, nothing moved; confirmed: moved through the ledger; reverted: moved back; canceled. */
export const SERVER_TXN_STATUSES = ['pending', 'confirmed', 'reverted', 'canceled'] as const;
export type ServerTxnStatus = (typeof SERVER_TXN_STATUSES)[number];

export const serverTxnSchema = z.object({
  id: z.string(),
  gctId: z.string(),
  /** Signed: credits added (positive) or taken (negative). */
  amount: z.number().int(),
  part: z.enum(['free', 'premium']).nullable(),
  cause: z.string(),
  reference: z.string().nullable(),
  idempotencyKey: z.string(),
  status: z.enum(SERVER_TXN_STATUSES),
  /** The ledger row of the confirmation, and of the revert. */
  ledgerTxnId: z.string().nullable(),
  reversalTxnId: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type ServerTxn = z.infer<typeof serverTxnSchema>;

/** POST txn/create: a pending transaction (confirm: true moves it at once). The key makes it once. */
export const txnCreateBodySchema = z.object({
  gctId,
  amount: z.coerce
    .number({ message: 'amount must be a whole number other than 0.' })
    .int({ message: 'amount must be a whole number other than 0.' })
    .refine((value) => value !== 0 && Math.abs(value) <= 100_000_000, {
      message: 'amount must be a whole number other than 0.',
    }),
  part: part.optional(),
  idempotencyKey,
  cause,
  reference,
  confirm: z.boolean().default(false),
});
export type TxnCreateBody = z.infer<typeof txnCreateBodySchema>;

export const txnIdSchema = z.object({ id: required('id') });
export const txnListServerQuerySchema = z.object({
  gctId,
  status: z.enum(SERVER_TXN_STATUSES).optional(),
  ...pageQueryFields,
});
export const serverTxnResponseSchema = z.object({ txn: serverTxnSchema, balance: balanceSchema });
export const serverTxnListResponseSchema = z.object({
  items: z.array(serverTxnSchema),
  page: z.number().int(),
  limit: z.number().int(),
});

// -------------------------------------------------------------------------------- withdraw requests

export const withdrawCreateBodySchema = z.object({
  gctId,
  currency,
  amount,
  note: z.string().max(500).optional(),
});
export const withdrawDecisionBodySchema = z.object({
  id: required('id'),
  note: z.string().max(500).optional(),
});

export const serverWithdrawRequestSchema = z.object({
  id: z.string(),
  gctId: z.string(),
  status: z.enum(WITHDRAW_STATUSES),
  currency: z.string(),
  amount: z.number().int(),
  note: z.string().nullable(),
  decisionNote: z.string().nullable(),
  /** The ledger row that took the credits, once approved. */
  ledgerTxnId: z.string().nullable(),
  createdAt: z.number(),
  decidedAt: z.number().nullable(),
});
export type ServerWithdrawRequest = z.infer<typeof serverWithdrawRequestSchema>;

/** A withdraw request with its player's balance after the call. */
export const serverWithdrawResponseSchema = z.object({
  request: serverWithdrawRequestSchema,
  balance: balanceSchema,
});

// ------------------------------------------------------------------------------------------ orders

/** An order another server started for a player (wallet/purchase), as its status and list calls tell it. */
export const serverOrderSchema = z.object({
  orderId: z.string(),
  gctId: z.string(),
  amount: z.number().int(),
  priceJpy: z.number().int(),
  productId: z.string(),
  provider: z.enum(['stripe', 'test']),
  status: z.enum(['pending', 'paid', 'canceled']),
  createdAt: z.number(),
});
export const serverOrderListResponseSchema = z.object({
  items: z.array(serverOrderSchema),
  page: z.number().int(),
  limit: z.number().int(),
});

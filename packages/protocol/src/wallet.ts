import { z } from 'zod';

/*
 * Credits (docs/product.md#rules): the currency, the packages on sale, the
 * price of every AI task, and the HTTP bodies of the client wallet calls. Paths are in ApiPath (http.ts);
 * the live balance arrives as the `system BALANCE` frame (frames.ts).
 */

/** The one credit currency the chat uses: its balance counts only `t_free`. */
export const CREDIT_CURRENCY = 't_free';
export type CreditCurrency = typeof CREDIT_CURRENCY;

/** The packages on sale (docs/product.md#rules). `productId` is also the app-store product id. */
export const CREDIT_PACKAGES = [
  { productId: 'credits_1000', amount: 1000, priceJpy: 149 },
  { productId: 'credits_5000', amount: 5000, priceJpy: 499 },
  { productId: 'credits_20000', amount: 20_000, priceJpy: 1499 },
] as const;
export type CreditPackage = (typeof CREDIT_PACKAGES)[number];
export const CREDIT_PACKAGE_AMOUNTS = CREDIT_PACKAGES.map((pack) => pack.amount);

export function creditPackageOf(amount: number): CreditPackage | undefined {
  return CREDIT_PACKAGES.find((pack) => pack.amount === amount);
}

/** The default daily free allowance (server CREDITS_DAILY_FREE), topped up at 00:00 Asia/Tokyo. */
export const DEFAULT_DAILY_FREE_CREDITS = 1000;
/** The time zone whose midnight replenishes free credits (docs/product.md#rules). */
export const CREDITS_TIME_ZONE = 'Asia/Tokyo';

/**
 * What each AI task costs (docs/decisions/0030-credit-prices.md has the reasoning). A call costs
 * `credits` per started block of `per` units, at least `credits`: a 50-character message translated into
 * one language costs 3 credits. Translation is charged once per target language.
 */
export const CREDIT_PRICES = {
  translation: { credits: 1, per: 20, unit: 'character' },
  note: { credits: 1, per: 40, unit: 'character' },
  speech: { credits: 1, per: 20, unit: 'character' },
  transcription: { credits: 1, per: 2, unit: 'second' },
  /** "Catch me up": the characters of the messages summarised, paid by the one who asks. */
  summary: { credits: 1, per: 200, unit: 'character' },
} as const;
export type PricedTask = keyof typeof CREDIT_PRICES;

/** Credits for one call of `task` over `units` characters or seconds. */
export function creditCost(task: PricedTask, units: number): number {
  const price = CREDIT_PRICES[task];
  const blocks = Math.max(1, Math.ceil(Math.max(0, units) / price.per));
  return blocks * price.credits;
}

// ---------------------------------------------------------------------------------------------- bodies

const currencyField = z.literal(CREDIT_CURRENCY, { message: `currency must be '${CREDIT_CURRENCY}'.` });

/** A balance in credits: `free` (daily, does not accumulate) and `premium` (bought, never expires). */
export const balanceSchema = z.object({
  free: z.number().int().nonnegative(),
  premium: z.number().int().nonnegative(),
});
export type Balance = z.infer<typeof balanceSchema>;

/** GET /api/wallet/balance?currency=t_free -> Balance. */
export const walletBalanceQuerySchema = z.object({ currency: currencyField.default(CREDIT_CURRENCY) });
export const walletBalanceResponseSchema = balanceSchema;

/** GET /api/wallet/list: every wallet of the user (one per currency; today only t_free). */
export const walletListResponseSchema = z.object({
  items: z.array(balanceSchema.extend({ currency: z.string() })),
});
export type WalletListResponse = z.infer<typeof walletListResponseSchema>;

/** POST /api/wallet/purchase: one of the packages; any other amount is a 400. */
export const purchaseBodySchema = z.object({
  currency: currencyField,
  amount: z.number().refine((amount) => creditPackageOf(amount) !== undefined, {
    message: `amount must be one of ${CREDIT_PACKAGE_AMOUNTS.join(', ')}.`,
  }),
});
export type PurchaseBody = z.infer<typeof purchaseBodySchema>;

export const purchaseResponseSchema = z.object({
  orderId: z.string(),
  /** Where to send the buyer: Stripe Checkout, or the server's own TEST MODE page. Opened in a new window. */
  checkoutURL: z.string(),
});
export type PurchaseResponse = z.infer<typeof purchaseResponseSchema>;

export const ORDER_STATUSES = ['pending', 'paid', 'canceled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** GET /api/wallet/purchase/status?orderId= */
export const purchaseStatusQuerySchema = z.object({
  orderId: z.string({ message: 'orderId is required.' }).min(1, { message: 'orderId is required.' }).max(100),
});
export const purchaseStatusResponseSchema = z.object({
  orderId: z.string(),
  status: z.enum(ORDER_STATUSES),
});
export type PurchaseStatusResponse = z.infer<typeof purchaseStatusResponseSchema>;

/** Kinds of ledger rows. Every change of a balance is exactly one row of one kind. */
export const TXN_KINDS = ['daily_grant', 'purchase', 'spend', 'refund', 'adjustment', 'reversal'] as const;
export type TxnKind = (typeof TXN_KINDS)[number];

/** `reversed`: a later `reversal` row cancels this one (rows are never edited). */
export const TXN_STATUSES = ['completed', 'reversed'] as const;
export type TxnStatus = (typeof TXN_STATUSES)[number];

/** One ledger row as the client sees it. `free` and `premium` are signed changes; `amount` their sum. */
export const txnSchema = z.object({
  id: z.string(),
  kind: z.enum(TXN_KINDS),
  status: z.enum(TXN_STATUSES),
  currency: z.string(),
  amount: z.number().int(),
  free: z.number().int(),
  premium: z.number().int(),
  /** What caused it, e.g. 'translation', 'order', 'daily'. */
  cause: z.string(),
  /** The thing it is about: an order id, a room and message, the row it reverses. */
  reference: z.string().nullable(),
  /** Milliseconds since the epoch. */
  createdAt: z.number(),
});
export type Txn = z.infer<typeof txnSchema>;

export const TXN_LIST_DEFAULT_LIMIT = 100;

/** GET /api/wallet/txn/list?status&limit&page: newest first. */
export const txnListQuerySchema = z.object({
  status: z.enum(TXN_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(TXN_LIST_DEFAULT_LIMIT).default(TXN_LIST_DEFAULT_LIMIT),
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type TxnListQuery = z.infer<typeof txnListQuerySchema>;

export const txnListResponseSchema = z.object({
  items: z.array(txnSchema),
  page: z.number().int(),
  limit: z.number().int(),
});
export type TxnListResponse = z.infer<typeof txnListResponseSchema>;

/** POST /api/wallet/withdraw-request: recorded for an administrator; it moves no credits by itself. */
export const withdrawRequestBodySchema = z.object({
  currency: currencyField,
  amount: z.number().int().positive({ message: 'amount must be a positive whole number.' }),
  note: z.string().max(500).optional(),
});
export type WithdrawRequestBody = z.infer<typeof withdrawRequestBodySchema>;

export const WITHDRAW_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const withdrawRequestResponseSchema = z.object({
  id: z.string(),
  status: z.enum(WITHDRAW_STATUSES),
  currency: z.string(),
  amount: z.number().int(),
  createdAt: z.number(),
});
export type WithdrawRequestResponse = z.infer<typeof withdrawRequestResponseSchema>;

/** Where the payment provider (or the test checkout) sends the buyer back: the web app's /checkout page. */
export const CHECKOUT_RETURN_PATH = '/checkout';

import {
  ApiPath,
  CREDIT_CURRENCY,
  purchaseResponseSchema,
  purchaseStatusResponseSchema,
  walletBalanceResponseSchema,
  type Balance,
  type OrderStatus,
  type PurchaseResponse,
} from '@xtalk/protocol';
import { ApiError, request } from '#web/lib/api-client';

/*
 * The wallet calls the chat makes (only the balance, in the currency t_free, and a purchase;
 * docs/product.md#calls-other-clients-rely-on), plus the order status the checkout landing page asks
 * for. Answers are parsed with the protocol's schemas, so a surprise from the server is an error here
 * and not a NaN on screen.
 */

/**
 * A payment call answered above 201 is, in the product's fixed wording, "API returned a non success
 * status code: {error}", carrying the code and the status; the caller words it in the interface
 * language.
 */
export class PaymentStatusError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly error: string,
  ) {
    super(`API returned a non success status code: ${error}`);
    this.name = 'PaymentStatusError';
  }
}

async function payment<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError && error.status > 201) {
      throw new PaymentStatusError(error.status, error.code, error.message);
    }
    throw error;
  }
}

export async function fetchBalance(token: string): Promise<Balance> {
  const body = await payment(() =>
    request<unknown>('GET', ApiPath.walletBalance, { token, params: { currency: CREDIT_CURRENCY } }),
  );
  return walletBalanceResponseSchema.parse(body);
}

/** Creates an order for one of the credit packages; the page at `checkoutURL` pays it. */
export async function startPurchase(token: string, amount: number): Promise<PurchaseResponse> {
  const body = await payment(() =>
    request<unknown>('POST', ApiPath.walletPurchase, { token, body: { currency: CREDIT_CURRENCY, amount } }),
  );
  return purchaseResponseSchema.parse(body);
}

export async function fetchPurchaseStatus(token: string, orderId: string): Promise<OrderStatus> {
  const body = await payment(() =>
    request<unknown>('GET', ApiPath.walletPurchaseStatus, { token, params: { orderId } }),
  );
  return purchaseStatusResponseSchema.parse(body).status;
}

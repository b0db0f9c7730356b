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
import { request } from '../../../lib/api-client';

/*
 * The wallet calls the chat makes (spec section 7: "The chat uses only balance (currency t_free) and
 * purchase"), plus the order status the checkout landing page asks for. Answers are parsed with the
 * protocol's schemas, so a surprise from the server is an error here and not a NaN on screen.
 */

export async function fetchBalance(token: string): Promise<Balance> {
  const body = await request<unknown>('GET', ApiPath.walletBalance, {
    token,
    params: { currency: CREDIT_CURRENCY },
  });
  return walletBalanceResponseSchema.parse(body);
}

/** Creates an order for one of the credit packages; the page at `checkoutURL` pays it. */
export async function startPurchase(token: string, amount: number): Promise<PurchaseResponse> {
  const body = await request<unknown>('POST', ApiPath.walletPurchase, {
    token,
    body: { currency: CREDIT_CURRENCY, amount },
  });
  return purchaseResponseSchema.parse(body);
}

export async function fetchPurchaseStatus(token: string, orderId: string): Promise<OrderStatus> {
  const body = await request<unknown>('GET', ApiPath.walletPurchaseStatus, { token, params: { orderId } });
  return purchaseStatusResponseSchema.parse(body).status;
}

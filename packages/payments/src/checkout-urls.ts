import { ApiPath, CHECKOUT_RETURN_PATH, type OrderStatus } from '@xtalk/protocol';

/**
 * The address the buyer's browser reaches this service at: PUBLIC_URL's origin, never a request's Host,
 * so that no request can send a buyer elsewhere.
 */
export const publicBase = (publicUrl: string): string => new URL(publicUrl).origin;

/** The web app's landing page after a checkout: /checkout?status=success|canceled&orderId=... */
export function returnUrl(base: string, status: 'success' | 'canceled', orderId: string): string {
  return `${base}${CHECKOUT_RETURN_PATH}?status=${status}&orderId=${encodeURIComponent(orderId)}`;
}

export function testCheckoutUrl(base: string, orderId: string): string {
  return `${base}${ApiPath.testCheckout(orderId)}`;
}

export function landingStatus(status: OrderStatus): 'success' | 'canceled' | undefined {
  return status === 'paid' ? 'success' : status === 'canceled' ? 'canceled' : undefined;
}

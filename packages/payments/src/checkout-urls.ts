import { ApiPath, CHECKOUT_RETURN_PATH, type OrderStatus } from '@xtalk/protocol';
import type { FastifyRequest } from 'fastify';

/** The address the buyer's browser reaches this server at: PUBLIC_URL, else the request's own origin. */
export function publicBase(publicUrl: string | undefined, request: FastifyRequest): string {
  if (publicUrl) return new URL(publicUrl).origin;
  return `${request.protocol}://${request.host}`;
}

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

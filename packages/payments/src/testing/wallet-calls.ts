import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { PurchaseResponse } from '@xtalk/protocol';

/*
 * The wallet calls a buyer's browser makes, for the tests of the service alone and of the service as a
 * host mounts it.
 */

/** A purchase started with the buyer's session headers; it must be accepted. */
export async function startPurchase(
  app: FastifyInstance,
  headers: Record<string, string>,
  amount: number,
): Promise<PurchaseResponse> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/wallet/purchase',
    headers,
    payload: { currency: 't_free', amount },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/**
 * What the test checkout's form does: a POST with an empty urlencoded body, carrying the buyer's session
 * (`session`: their bearer header, or the checkout cookie the purchase left).
 */
export const submitCheckoutForm = (app: FastifyInstance, path: string, session: Record<string, string>) =>
  app.inject({
    method: 'POST',
    url: path,
    headers: { ...session, 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });

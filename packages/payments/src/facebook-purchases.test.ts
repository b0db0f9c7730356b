import { describe, expect, it } from 'vitest';
import { PaymentPath } from '@xtalk/protocol';
import { signRequest } from './testing/facebook.js';
import { call, expectBalanced, newPlayer, snapshot } from './testing/payment-server.js';
import { FB_SECRET, google, usePurchaseService } from './testing/purchase-service.js';

/*
 * Facebook purchases (signed requests made here) and the anonymous verification, which checks without
 * crediting unless it names a player.
 */

describe('Facebook and anonymous verification', () => {
  const service = usePurchaseService();

  it('verifies Facebook signed requests; the payment id is the key', async () => {
    const gctId = await newPlayer(service.server);
    const facebook = (paymentId: string, signedRequest: string) => ({
      gctId,
      appId: 'fb-1234',
      platform: 'facebook',
      paymentId,
      productId: 'credits_5000',
      signedRequest,
    });
    const good = signRequest({ payment_id: 'fb-pay-1', product_id: 'credits_5000' }, FB_SECRET);
    const first = await call(service.server, 'POST', PaymentPath.verify, facebook('fb-pay-1', good));
    expect(first.json()).toEqual({ verified: true, credited: 5000, balance: { free: 1000, premium: 5000 } });
    const again = await call(service.server, 'POST', PaymentPath.verify, facebook('fb-pay-1', good));
    expect(again.json()).toEqual(first.json());

    const before = await snapshot(service.server);
    const forged = signRequest({ payment_id: 'fb-pay-2', product_id: 'credits_5000' }, 'not-the-secret');
    const otherPayment = signRequest({ payment_id: 'fb-pay-3' }, FB_SECRET);
    for (const [paymentId, signedRequest] of [
      ['fb-pay-2', forged],
      ['fb-pay-2', otherPayment],
    ] as const) {
      const refused = await call(
        service.server,
        'POST',
        PaymentPath.verify,
        facebook(paymentId, signedRequest),
      );
      expect(refused.statusCode).toBe(400);
      expect(refused.json().code).toBe('signed_request_invalid');
    }
    // a known payment id still needs Facebook's signature, and a known purchase its own product
    const unsigned = await call(
      service.server,
      'POST',
      PaymentPath.verify,
      facebook('fb-pay-1', otherPayment),
    );
    expect(unsigned.json().code).toBe('signed_request_invalid');
    const otherProduct = await call(service.server, 'POST', PaymentPath.verify, {
      ...facebook('fb-pay-1', good),
      productId: 'credits_1000',
    });
    expect(otherProduct.json().code).toBe('product_mismatch');
    expect(await snapshot(service.server)).toEqual(before);
    await expectBalanced(service.server, gctId);
  });

  it('anonymous verification only checks without a gctId, and credits the player it names', async () => {
    const token = service.googlePurchase('credits_1000');
    const before = await snapshot(service.server);
    const checked = await call(
      service.server,
      'POST',
      PaymentPath.verifyAnonymous,
      google(undefined, token),
      {},
    );
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toEqual({ verified: true, credited: 0, balance: null });
    expect(await snapshot(service.server)).toEqual(before);
    const gctId = await newPlayer(service.server);
    const credited = await call(
      service.server,
      'POST',
      PaymentPath.verifyAnonymous,
      google(gctId, token),
      {},
    );
    expect(credited.json()).toMatchObject({ credited: 1000, balance: { premium: 1000 } });
  });
});

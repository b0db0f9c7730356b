import { describe, expect, it } from 'vitest';
import { PaymentPath } from '@xtalk/protocol';
import { call, newPlayer, snapshot } from './testing/payment-server.js';
import { APP, google, usePurchaseService } from './testing/purchase-service.js';

/*
 * A player's purchases listed, consumed, and their consume errors recorded.
 */

describe('listing and consuming purchases', () => {
  const service = usePurchaseService();

  it('lists a player’s purchases newest first, paged, filtered by status', async () => {
    const gctId = await newPlayer(service.server);
    const purchased: string[] = [];
    for (const productId of ['credits_1000', 'credits_5000', 'credits_20000']) {
      const token = service.googlePurchase(productId);
      purchased.push(token);
      expect(
        (await call(service.server, 'POST', PaymentPath.verify, google(gctId, token, productId))).statusCode,
      ).toBe(200);
    }
    const all = await call(service.server, 'GET', `${PaymentPath.list}?userId=${gctId}&appId=${APP}`);
    expect(all.json()).toMatchObject({ page: 0, limit: 100 });
    expect(all.json().items.map((p: { purchaseToken: string }) => p.purchaseToken)).toEqual(
      [...purchased].reverse(),
    );
    const page0 = await call(
      service.server,
      'GET',
      `${PaymentPath.list}?userId=${gctId}&appId=${APP}&limit=2&page=0`,
    );
    const page1 = await call(
      service.server,
      'GET',
      `${PaymentPath.list}?gctId=${gctId}&appId=${APP}&limit=2&page=1`,
    );
    expect(page0.json().items.map((p: { credits: number }) => p.credits)).toEqual([20_000, 5000]);
    expect(page1.json()).toMatchObject({ page: 1, limit: 2, items: [{ credits: 1000, status: 'credited' }] });
    const otherApp = await call(service.server, 'GET', `${PaymentPath.list}?userId=${gctId}&appId=other.app`);
    expect(otherApp.json().items).toEqual([]);

    await call(service.server, 'POST', PaymentPath.consume, {
      platform: 'google',
      appId: APP,
      gctId,
      purchaseToken: purchased[0],
    });
    const consumed = await call(
      service.server,
      'GET',
      `${PaymentPath.list}?userId=${gctId}&appId=${APP}&status=consumed`,
    );
    expect(consumed.json().items.map((p: { purchaseToken: string }) => p.purchaseToken)).toEqual([
      purchased[0],
    ]);
  });

  it('records consumption once, and consume errors without undoing a consume', async () => {
    const gctId = await newPlayer(service.server);
    const token = service.googlePurchase('credits_1000');
    await call(service.server, 'POST', PaymentPath.verify, google(gctId, token));
    const names = { platform: 'google', appId: APP, gctId, purchaseToken: token };

    const failed = await call(service.server, 'POST', PaymentPath.consumeError, {
      ...names,
      error: 'BillingResponse 6',
    });
    expect(failed.json().purchase).toMatchObject({
      status: 'consume_failed',
      consumeError: 'BillingResponse 6',
    });
    const consumed = await call(service.server, 'POST', PaymentPath.consume, names);
    expect(consumed.statusCode, consumed.body).toBe(200);
    expect(consumed.json().purchase).toMatchObject({ status: 'consumed', credits: 1000 });
    const before = await snapshot(service.server);
    const replay = await call(service.server, 'POST', PaymentPath.consume, names);
    expect(replay.json()).toEqual(consumed.json());
    expect(await snapshot(service.server)).toEqual(before);
    const lateError = await call(service.server, 'POST', PaymentPath.consumeError, {
      ...names,
      error: 'late',
    });
    expect(lateError.json().purchase).toMatchObject({ status: 'consumed', consumeError: 'late' });
    // consuming moves no credits
    const balance = await call(service.server, 'POST', PaymentPath.verify, google(gctId, token));
    expect(balance.json().balance).toEqual({ free: 1000, premium: 1000 });

    const unknown = await call(service.server, 'POST', PaymentPath.consume, {
      ...names,
      purchaseToken: 'unknown',
    });
    expect(unknown.statusCode).toBe(404);
    const otherPlayer = await call(service.server, 'POST', PaymentPath.consume, {
      ...names,
      gctId: 'someone-else',
    });
    expect(otherPlayer.statusCode).toBe(404);
  });
});

import { describe, expect, it } from 'vitest';
import { errorBodySchema, PaymentPath, purchaseVerifyResponseSchema } from '@xtalk/protocol';
import { call, expectBalanced, newPlayer, snapshot } from './testing/payment-server.js';
import { google, usePurchaseService } from './testing/purchase-service.js';

/*
 * Google Play purchases: verified against Google's shapes served in this test, credited once however
 * often or concurrently verified, never to two players, and nothing stored on a refusal.
 */

describe('Google Play purchases', () => {
  const service = usePurchaseService();

  it('credits a Google Play purchase once, however often and concurrently it is verified', async () => {
    const gctId = await newPlayer(service.server);
    const token = service.googlePurchase('credits_5000');
    const first = await call(
      service.server,
      'POST',
      PaymentPath.verify,
      google(gctId, token, 'credits_5000'),
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(purchaseVerifyResponseSchema.parse(first.json())).toEqual({
      verified: true,
      credited: 5000,
      balance: { free: 1000, premium: 5000 },
    });
    const replays = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(service.server, 'POST', PaymentPath.verify, google(gctId, token, 'credits_5000')),
      ),
    );
    for (const replay of replays) expect(replay.json()).toEqual(first.json());
    await expectBalanced(service.server, gctId);
  });

  it('credits once when the first verifications race each other', async () => {
    const gctId = await newPlayer(service.server);
    const token = service.googlePurchase('credits_1000');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call(service.server, 'POST', PaymentPath.verify, google(gctId, token))),
    );
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().credited).toBe(1000);
    }
    const balance = await call(service.server, 'POST', PaymentPath.verify, google(gctId, token));
    expect(balance.json().balance).toEqual({ free: 1000, premium: 1000 });
    await expectBalanced(service.server, gctId);
  });

  it('refuses pending, canceled and unknown purchases and stores nothing', async () => {
    const gctId = await newPlayer(service.server);
    const cases: [string, number, string][] = [
      [service.googlePurchase('credits_1000', 2), 409, 'purchase_pending'],
      [service.googlePurchase('credits_1000', 1), 400, 'purchase_canceled'],
      ['a-token-google-never-issued', 400, 'purchase_token_invalid'],
    ];
    const before = await snapshot(service.server);
    for (const [token, status, code] of cases) {
      const response = await call(service.server, 'POST', PaymentPath.verify, google(gctId, token));
      expect(response.statusCode, response.body).toBe(status);
      const body = response.json();
      expect(errorBodySchema.parse(body).statusCode).toBe(status);
      expect(body.code).toBe(code);
    }
    expect(await snapshot(service.server)).toEqual(before);
  });

  it('credits a pending purchase once it is paid', async () => {
    const gctId = await newPlayer(service.server);
    const token = service.googlePurchase('credits_20000', 2);
    expect(
      (await call(service.server, 'POST', PaymentPath.verify, google(gctId, token, 'credits_20000')))
        .statusCode,
    ).toBe(409);
    service.play.purchases.get(token)!.purchaseState = 0;
    const paid = await call(
      service.server,
      'POST',
      PaymentPath.verify,
      google(gctId, token, 'credits_20000'),
    );
    expect(paid.json()).toMatchObject({ verified: true, credited: 20_000 });
  });

  it('never credits one purchase to two players, nor to an account it was not made for', async () => {
    const buyer = await newPlayer(service.server);
    const other = await newPlayer(service.server);
    const token = service.googlePurchase('credits_1000');
    expect((await call(service.server, 'POST', PaymentPath.verify, google(buyer, token))).statusCode).toBe(
      200,
    );
    const stolen = await call(service.server, 'POST', PaymentPath.verify, google(other, token));
    expect(stolen.statusCode).toBe(409);
    expect(stolen.json().code).toBe('purchase_claimed');

    const bound = service.googlePurchase('credits_1000', 0, { gctId: buyer });
    const before = await snapshot(service.server);
    const mismatch = await call(service.server, 'POST', PaymentPath.verify, google(other, bound));
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json().code).toBe('account_mismatch');
    const unknownPlayer = await call(
      service.server,
      'POST',
      PaymentPath.verify,
      google('no-such-player', bound),
    );
    expect(unknownPlayer.statusCode).toBe(404);
    expect(await snapshot(service.server)).toEqual(before);
    expect(
      (await call(service.server, 'POST', PaymentPath.verify, google(buyer, bound))).json().credited,
    ).toBe(1000);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, PaymentPath, purchaseVerifyResponseSchema } from '@xtalk/protocol';
import { signRequest } from './testing/facebook.js';
import { startFakeGooglePlay, type FakeGooglePlay } from './testing/google-play-server.js';
import {
  call,
  expectBalanced,
  newPlayer,
  snapshot,
  startPaymentServer,
  type TestService,
  SERVER_KEY,
} from './testing/payment-server.js';

/*
 * The app-store purchase calls against Google's shapes served in this test and Facebook signed requests
 * made here: validation messages of spec section 5 word for word, the server key, one credit per purchase
 * however often or concurrently it is verified, and nothing stored on any refusal.
 */

const APP = 'com.xtalk.app';
const FB_SECRET = 'facebook-app-secret-for-tests';

describe('purchase verification and consumption', () => {
  let play: FakeGooglePlay;
  let server: TestService;
  let tokens = 0;

  /** A purchase Google knows, in the given state; returns its token. */
  function googlePurchase(productId: string, purchaseState: 0 | 1 | 2 = 0, extra: { gctId?: string } = {}) {
    tokens += 1;
    const token = `play-token-${tokens}-${'x'.repeat(40)}`;
    play.purchases.set(token, {
      packageName: APP,
      productId,
      purchaseState,
      ...(extra.gctId ? { obfuscatedExternalAccountId: extra.gctId } : {}),
    });
    return token;
  }

  const google = (gctId: string | undefined, purchaseToken: string, productId = 'credits_1000') => ({
    ...(gctId ? { gctId } : {}),
    appId: APP,
    platform: 'google',
    productId,
    purchaseToken,
    deviceId: 'pixel-8',
    platformVersion: '15',
    isSubscription: false,
  });

  beforeAll(async () => {
    play = await startFakeGooglePlay();
    server = await startPaymentServer({
      GOOGLE_PLAY_SERVICE_ACCOUNT: JSON.stringify(play.serviceAccount),
      GOOGLE_PLAY_API_URL: play.apiUrl,
      FACEBOOK_APP_SECRET: FB_SECRET,
    });
  });
  afterAll(async () => {
    await server.close();
    await play.close();
  });

  it('credits a Google Play purchase once, however often and concurrently it is verified', async () => {
    const gctId = await newPlayer(server);
    const token = googlePurchase('credits_5000');
    const first = await call(server, 'POST', PaymentPath.verify, google(gctId, token, 'credits_5000'));
    expect(first.statusCode, first.body).toBe(200);
    expect(purchaseVerifyResponseSchema.parse(first.json())).toEqual({
      verified: true,
      credited: 5000,
      balance: { free: 1000, premium: 5000 },
    });
    const replays = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(server, 'POST', PaymentPath.verify, google(gctId, token, 'credits_5000')),
      ),
    );
    for (const replay of replays) expect(replay.json()).toEqual(first.json());
    await expectBalanced(server, gctId);
  });

  it('credits once when the first verifications race each other', async () => {
    const gctId = await newPlayer(server);
    const token = googlePurchase('credits_1000');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call(server, 'POST', PaymentPath.verify, google(gctId, token))),
    );
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().credited).toBe(1000);
    }
    const balance = await call(server, 'POST', PaymentPath.verify, google(gctId, token));
    expect(balance.json().balance).toEqual({ free: 1000, premium: 1000 });
    await expectBalanced(server, gctId);
  });

  it('refuses pending, canceled and unknown purchases and stores nothing', async () => {
    const gctId = await newPlayer(server);
    const cases: [string, number, string][] = [
      [googlePurchase('credits_1000', 2), 409, 'purchase_pending'],
      [googlePurchase('credits_1000', 1), 400, 'purchase_canceled'],
      ['a-token-google-never-issued', 400, 'purchase_token_invalid'],
    ];
    const before = await snapshot(server);
    for (const [token, status, code] of cases) {
      const response = await call(server, 'POST', PaymentPath.verify, google(gctId, token));
      expect(response.statusCode, response.body).toBe(status);
      const body = response.json();
      expect(errorBodySchema.parse(body).statusCode).toBe(status);
      expect(body.code).toBe(code);
    }
    expect(await snapshot(server)).toEqual(before);
  });

  it('credits a pending purchase once it is paid', async () => {
    const gctId = await newPlayer(server);
    const token = googlePurchase('credits_20000', 2);
    expect(
      (await call(server, 'POST', PaymentPath.verify, google(gctId, token, 'credits_20000'))).statusCode,
    ).toBe(409);
    play.purchases.get(token)!.purchaseState = 0;
    const paid = await call(server, 'POST', PaymentPath.verify, google(gctId, token, 'credits_20000'));
    expect(paid.json()).toMatchObject({ verified: true, credited: 20_000 });
  });

  it('never credits one purchase to two players, nor to an account it was not made for', async () => {
    const buyer = await newPlayer(server);
    const other = await newPlayer(server);
    const token = googlePurchase('credits_1000');
    expect((await call(server, 'POST', PaymentPath.verify, google(buyer, token))).statusCode).toBe(200);
    const stolen = await call(server, 'POST', PaymentPath.verify, google(other, token));
    expect(stolen.statusCode).toBe(409);
    expect(stolen.json().code).toBe('purchase_claimed');

    const bound = googlePurchase('credits_1000', 0, { gctId: buyer });
    const before = await snapshot(server);
    const mismatch = await call(server, 'POST', PaymentPath.verify, google(other, bound));
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json().code).toBe('account_mismatch');
    const unknownPlayer = await call(server, 'POST', PaymentPath.verify, google('no-such-player', bound));
    expect(unknownPlayer.statusCode).toBe(404);
    expect(await snapshot(server)).toEqual(before);
    expect((await call(server, 'POST', PaymentPath.verify, google(buyer, bound))).json().credited).toBe(1000);
  });

  it('verifies Facebook signed requests; the payment id is the key', async () => {
    const gctId = await newPlayer(server);
    const facebook = (paymentId: string, signedRequest: string) => ({
      gctId,
      appId: 'fb-1234',
      platform: 'facebook',
      paymentId,
      productId: 'credits_5000',
      signedRequest,
    });
    const good = signRequest({ payment_id: 'fb-pay-1', product_id: 'credits_5000' }, FB_SECRET);
    const first = await call(server, 'POST', PaymentPath.verify, facebook('fb-pay-1', good));
    expect(first.json()).toEqual({ verified: true, credited: 5000, balance: { free: 1000, premium: 5000 } });
    const again = await call(server, 'POST', PaymentPath.verify, facebook('fb-pay-1', good));
    expect(again.json()).toEqual(first.json());

    const before = await snapshot(server);
    const forged = signRequest({ payment_id: 'fb-pay-2', product_id: 'credits_5000' }, 'not-the-secret');
    const otherPayment = signRequest({ payment_id: 'fb-pay-3' }, FB_SECRET);
    for (const [paymentId, signedRequest] of [
      ['fb-pay-2', forged],
      ['fb-pay-2', otherPayment],
    ] as const) {
      const refused = await call(server, 'POST', PaymentPath.verify, facebook(paymentId, signedRequest));
      expect(refused.statusCode).toBe(400);
      expect(refused.json().code).toBe('signed_request_invalid');
    }
    // a known payment id still needs Facebook's signature, and a known purchase its own product
    const unsigned = await call(server, 'POST', PaymentPath.verify, facebook('fb-pay-1', otherPayment));
    expect(unsigned.json().code).toBe('signed_request_invalid');
    const otherProduct = await call(server, 'POST', PaymentPath.verify, {
      ...facebook('fb-pay-1', good),
      productId: 'credits_1000',
    });
    expect(otherProduct.json().code).toBe('product_mismatch');
    expect(await snapshot(server)).toEqual(before);
    await expectBalanced(server, gctId);
  });

  it('anonymous verification only checks without a gctId, and credits the player it names', async () => {
    const token = googlePurchase('credits_1000');
    const before = await snapshot(server);
    const checked = await call(server, 'POST', PaymentPath.verifyAnonymous, google(undefined, token), {});
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toEqual({ verified: true, credited: 0, balance: null });
    expect(await snapshot(server)).toEqual(before);
    const gctId = await newPlayer(server);
    const credited = await call(server, 'POST', PaymentPath.verifyAnonymous, google(gctId, token), {});
    expect(credited.json()).toMatchObject({ credited: 1000, balance: { premium: 1000 } });
  });

  it('answers the validation messages of spec section 5 word for word, storing nothing', async () => {
    const gctId = await newPlayer(server);
    const googleMessage = 'appId, productId and purchaseToken are required.';
    const cases: [string, unknown, string][] = [
      [PaymentPath.verify, { ...google(gctId, 'tok'), appId: undefined }, googleMessage],
      [PaymentPath.verify, { ...google(gctId, 'tok'), productId: '' }, googleMessage],
      [PaymentPath.verify, { ...google(gctId, 'tok'), purchaseToken: undefined }, googleMessage],
      // the server form needs the player too
      [PaymentPath.verify, google(undefined, 'tok'), googleMessage],
      [PaymentPath.verifyAnonymous, { ...google(undefined, 'tok'), purchaseToken: ' ' }, googleMessage],
      [
        PaymentPath.verify,
        { gctId, appId: 'fb', platform: 'facebook', productId: 'credits_1000', signedRequest: 'a.b' },
        'appId, paymentId, productId and signedRequest are required.',
      ],
      [
        PaymentPath.verify,
        { ...google(gctId, 'tok'), platform: 'apple' },
        "platform must be 'google' or 'facebook'.",
      ],
      [
        PaymentPath.verify,
        { ...google(gctId, 'tok'), productId: 'credits_999' },
        'productId must be one of credits_1000, credits_5000, credits_20000.',
      ],
      [
        PaymentPath.consume,
        { platform: 'google', appId: APP, gctId },
        'platform, appId, purchaseToken and gctId are required.',
      ],
      [
        PaymentPath.consumeError,
        { platform: 'google', appId: APP, gctId, purchaseToken: 'tok' },
        'error is required but is empty.',
      ],
      [
        PaymentPath.consumeError,
        { platform: 'google', appId: APP, gctId, purchaseToken: 'tok', error: '  ' },
        'error is required but is empty.',
      ],
    ];
    const before = await snapshot(server);
    for (const [url, body, message] of cases) {
      const headers: Record<string, string> =
        url === PaymentPath.verifyAnonymous ? {} : { 'x-server-key': SERVER_KEY };
      const response = await call(server, 'POST', url, body, headers);
      expect(response.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(response.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message,
        code: 'invalid_request',
      });
    }
    for (const query of ['', `?appId=${APP}`, `?userId=${gctId}`]) {
      const response = await call(server, 'GET', `${PaymentPath.list}${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('appId and gctId are mandatory');
    }
    expect(await snapshot(server)).toEqual(before);
  });

  it('asks for the server key: 401 without it, 403 with a wrong one', async () => {
    const token = googlePurchase('credits_1000');
    const gctId = await newPlayer(server);
    const before = await snapshot(server);
    const routes: ['GET' | 'POST', string, unknown][] = [
      ['POST', PaymentPath.verify, google(gctId, token)],
      ['GET', `${PaymentPath.list}?userId=${gctId}&appId=${APP}`, undefined],
      ['POST', PaymentPath.consume, { platform: 'google', appId: APP, gctId, purchaseToken: token }],
      [
        'POST',
        PaymentPath.consumeError,
        { platform: 'google', appId: APP, gctId, purchaseToken: token, error: 'x' },
      ],
    ];
    for (const [method, url, body] of routes) {
      const missing = await call(server, method, url, body, {});
      expect(missing.statusCode, url).toBe(401);
      expect(missing.json()).toMatchObject({
        code: 'unauthorized',
        message: 'The X-Server-Key header is required.',
      });
      const wrong = await call(server, method, url, body, { 'x-server-key': `${SERVER_KEY}-not` });
      expect(wrong.statusCode, url).toBe(403);
      expect(wrong.json()).toMatchObject({
        code: 'forbidden',
        message: 'The X-Server-Key header is not valid.',
      });
    }
    expect(await snapshot(server)).toEqual(before);
  });

  it('lists a player’s purchases newest first, paged, filtered by status', async () => {
    const gctId = await newPlayer(server);
    const purchased: string[] = [];
    for (const productId of ['credits_1000', 'credits_5000', 'credits_20000']) {
      const token = googlePurchase(productId);
      purchased.push(token);
      expect(
        (await call(server, 'POST', PaymentPath.verify, google(gctId, token, productId))).statusCode,
      ).toBe(200);
    }
    const all = await call(server, 'GET', `${PaymentPath.list}?userId=${gctId}&appId=${APP}`);
    expect(all.json()).toMatchObject({ page: 0, limit: 100 });
    expect(all.json().items.map((p: { purchaseToken: string }) => p.purchaseToken)).toEqual(
      [...purchased].reverse(),
    );
    const page0 = await call(
      server,
      'GET',
      `${PaymentPath.list}?userId=${gctId}&appId=${APP}&limit=2&page=0`,
    );
    const page1 = await call(server, 'GET', `${PaymentPath.list}?gctId=${gctId}&appId=${APP}&limit=2&page=1`);
    expect(page0.json().items.map((p: { credits: number }) => p.credits)).toEqual([20_000, 5000]);
    expect(page1.json()).toMatchObject({ page: 1, limit: 2, items: [{ credits: 1000, status: 'credited' }] });
    const otherApp = await call(server, 'GET', `${PaymentPath.list}?userId=${gctId}&appId=other.app`);
    expect(otherApp.json().items).toEqual([]);

    await call(server, 'POST', PaymentPath.consume, {
      platform: 'google',
      appId: APP,
      gctId,
      purchaseToken: purchased[0],
    });
    const consumed = await call(
      server,
      'GET',
      `${PaymentPath.list}?userId=${gctId}&appId=${APP}&status=consumed`,
    );
    expect(consumed.json().items.map((p: { purchaseToken: string }) => p.purchaseToken)).toEqual([
      purchased[0],
    ]);
  });

  it('records consumption once, and consume errors without undoing a consume', async () => {
    const gctId = await newPlayer(server);
    const token = googlePurchase('credits_1000');
    await call(server, 'POST', PaymentPath.verify, google(gctId, token));
    const names = { platform: 'google', appId: APP, gctId, purchaseToken: token };

    const failed = await call(server, 'POST', PaymentPath.consumeError, {
      ...names,
      error: 'BillingResponse 6',
    });
    expect(failed.json().purchase).toMatchObject({
      status: 'consume_failed',
      consumeError: 'BillingResponse 6',
    });
    const consumed = await call(server, 'POST', PaymentPath.consume, names);
    expect(consumed.statusCode, consumed.body).toBe(200);
    expect(consumed.json().purchase).toMatchObject({ status: 'consumed', credits: 1000 });
    const before = await snapshot(server);
    const replay = await call(server, 'POST', PaymentPath.consume, names);
    expect(replay.json()).toEqual(consumed.json());
    expect(await snapshot(server)).toEqual(before);
    const lateError = await call(server, 'POST', PaymentPath.consumeError, { ...names, error: 'late' });
    expect(lateError.json().purchase).toMatchObject({ status: 'consumed', consumeError: 'late' });
    // consuming moves no credits
    const balance = await call(server, 'POST', PaymentPath.verify, google(gctId, token));
    expect(balance.json().balance).toEqual({ free: 1000, premium: 1000 });

    const unknown = await call(server, 'POST', PaymentPath.consume, { ...names, purchaseToken: 'unknown' });
    expect(unknown.statusCode).toBe(404);
    const otherPlayer = await call(server, 'POST', PaymentPath.consume, { ...names, gctId: 'someone-else' });
    expect(otherPlayer.statusCode).toBe(404);
  });
});

describe('payment service without keys or stores configured', () => {
  let server: TestService;
  beforeAll(async () => {
    server = await startPaymentServer({ PAYMENT_SERVER_KEY: '', ADMIN_API_KEY: '' });
  });
  afterAll(() => server.close());

  it('says which setting is missing instead of pretending to succeed', async () => {
    const gctId = await newPlayer(server);
    const body = { gctId, appId: APP, platform: 'google', productId: 'credits_1000', purchaseToken: 'tok' };
    const google = await call(server, 'POST', PaymentPath.verifyAnonymous, body, {});
    expect(google.statusCode).toBe(503);
    expect(google.json()).toMatchObject({
      code: 'platform_not_configured',
      message: 'google purchases are not configured on this server (GOOGLE_PLAY_SERVICE_ACCOUNT is not set).',
    });
    const facebook = await call(
      server,
      'POST',
      PaymentPath.verifyAnonymous,
      { ...body, platform: 'facebook', paymentId: 'p', signedRequest: 'a.b' },
      {},
    );
    expect(facebook.json().message).toMatch(/FACEBOOK_APP_SECRET is not set/);
    const serverCall = await call(server, 'POST', PaymentPath.verify, body, {
      'x-server-key': 'anything-at-all',
    });
    expect(serverCall.statusCode).toBe(503);
    expect(serverCall.json().message).toMatch(/PAYMENT_SERVER_KEY is not set/);
    const admin = await call(server, 'POST', PaymentPath.adminList, { gctId }, { 'x-admin-key': 'anything' });
    expect(admin.statusCode).toBe(503);
    expect(admin.json().message).toMatch(/ADMIN_API_KEY is not set/);
  });
});

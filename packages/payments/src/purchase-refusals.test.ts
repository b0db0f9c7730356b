import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentPath } from '@xtalk/protocol';
import {
  call,
  newPlayer,
  snapshot,
  startPaymentServer,
  type TestService,
  SERVER_KEY,
} from './testing/payment-server.js';
import { APP, google, usePurchaseService } from './testing/purchase-service.js';

/*
 * Refused purchase calls: the fixed validation messages word for word (docs/payment-api.md), the
 * server key, and the settings a call needs; none stores anything.
 */

describe('purchase call refusals', () => {
  const service = usePurchaseService();

  it('answers the fixed validation messages word for word, storing nothing', async () => {
    const gctId = await newPlayer(service.server);
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
    const before = await snapshot(service.server);
    for (const [url, body, message] of cases) {
      const headers: Record<string, string> =
        url === PaymentPath.verifyAnonymous ? {} : { 'x-server-key': SERVER_KEY };
      const response = await call(service.server, 'POST', url, body, headers);
      expect(response.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(response.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message,
        code: 'invalid_request',
      });
    }
    for (const query of ['', `?appId=${APP}`, `?userId=${gctId}`]) {
      const response = await call(service.server, 'GET', `${PaymentPath.list}${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('appId and gctId are mandatory');
    }
    expect(await snapshot(service.server)).toEqual(before);
  });

  it('asks for the server key: 401 without it, 403 with a wrong one', async () => {
    const token = service.googlePurchase('credits_1000');
    const gctId = await newPlayer(service.server);
    const before = await snapshot(service.server);
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
      const missing = await call(service.server, method, url, body, {});
      expect(missing.statusCode, url).toBe(401);
      expect(missing.json()).toMatchObject({
        code: 'unauthorized',
        message: 'The X-Server-Key header is required.',
      });
      const wrong = await call(service.server, method, url, body, { 'x-server-key': `${SERVER_KEY}-not` });
      expect(wrong.statusCode, url).toBe(403);
      expect(wrong.json()).toMatchObject({
        code: 'forbidden',
        message: 'The X-Server-Key header is not valid.',
      });
    }
    expect(await snapshot(service.server)).toEqual(before);
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

import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from '../testing/facebook.js';
import { startFakeGooglePlay, type FakeGooglePlay } from '../testing/google-play-server.js';
import { createFacebookVerifier } from './facebook.js';
import { createGooglePlayVerifier, loadServiceAccount } from './google-play.js';
import type { StoreVerifier } from './verifier.js';

/* The verifiers alone, against Google's shapes served here and signed requests made here. */

const APP = 'com.xtalk.app';

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { statusCode: number; code: string; message: string };
  }
  throw new Error('expected a rejection');
}

describe('Google Play verification', () => {
  let play: FakeGooglePlay;
  let verifier: StoreVerifier;

  beforeAll(async () => {
    play = await startFakeGooglePlay();
    verifier = createGooglePlayVerifier({
      serviceAccount: loadServiceAccount(JSON.stringify(play.serviceAccount)),
      apiUrl: play.apiUrl,
    });
    play.purchases.set('tok-paid', {
      packageName: APP,
      productId: 'credits_5000',
      purchaseState: 0,
      quantity: 2,
    });
    play.purchases.set('tok-pending', { packageName: APP, productId: 'credits_1000', purchaseState: 2 });
    play.purchases.set('tok-canceled', { packageName: APP, productId: 'credits_1000', purchaseState: 1 });
  });
  afterAll(() => play.close());

  it('accepts a purchased token after a service-account token exchange', async () => {
    const purchase = await verifier.verify({
      appId: APP,
      productId: 'credits_5000',
      purchaseToken: 'tok-paid',
    });
    expect(purchase).toMatchObject({ key: 'tok-paid', productId: 'credits_5000', quantity: 2 });
    expect(play.requests).toContain('POST /token');
    expect(play.requests).toContain(
      'GET /androidpublisher/v3/applications/com.xtalk.app/purchases/products/credits_5000/tokens/tok-paid',
    );
  });

  it('refuses pending, canceled and unknown tokens, each with its reason', async () => {
    const pending = await rejection(
      verifier.verify({ appId: APP, productId: 'credits_1000', purchaseToken: 'tok-pending' }),
    );
    expect(pending).toMatchObject({ statusCode: 409, code: 'purchase_pending' });
    const canceled = await rejection(
      verifier.verify({ appId: APP, productId: 'credits_1000', purchaseToken: 'tok-canceled' }),
    );
    expect(canceled).toMatchObject({ statusCode: 400, code: 'purchase_canceled' });
    const unknown = await rejection(
      verifier.verify({ appId: APP, productId: 'credits_1000', purchaseToken: 'tok-nobody' }),
    );
    expect(unknown).toMatchObject({ statusCode: 400, code: 'purchase_token_invalid' });
    // the right token asked under another product is not that product's purchase
    const otherProduct = await rejection(
      verifier.verify({ appId: APP, productId: 'credits_20000', purchaseToken: 'tok-paid' }),
    );
    expect(otherProduct).toMatchObject({ statusCode: 400, code: 'purchase_token_invalid' });
  });

  it('tells a service account Google refuses from a bad purchase', async () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const stranger = createGooglePlayVerifier({
      serviceAccount: { ...loadServiceAccount(JSON.stringify(play.serviceAccount)), private_key: privateKey },
      apiUrl: play.apiUrl,
    });
    const refused = await rejection(
      stranger.verify({ appId: APP, productId: 'credits_5000', purchaseToken: 'tok-paid' }),
    );
    expect(refused).toMatchObject({ statusCode: 502, code: 'store_unauthorized' });
  });

  it('answers 503 when Google cannot be reached', async () => {
    const offline = createGooglePlayVerifier({
      serviceAccount: {
        ...loadServiceAccount(JSON.stringify(play.serviceAccount)),
        token_uri: 'http://127.0.0.1:1/token',
      },
      apiUrl: 'http://127.0.0.1:1/',
    });
    const failed = await rejection(
      offline.verify({ appId: APP, productId: 'credits_5000', purchaseToken: 'tok-paid' }),
    );
    expect(failed).toMatchObject({ statusCode: 503, code: 'store_unreachable' });
  });

  it('reads the service account as JSON or from a path, and names what is wrong', () => {
    expect(() => loadServiceAccount('{"client_email": "x"}')).toThrow(/client_email and private_key/);
    expect(() => loadServiceAccount('/no/such/key.json')).toThrow(/cannot read \/no\/such\/key.json/);
  });
});

describe('Facebook verification', () => {
  const SECRET = 'fb-app-secret';
  const verifier = createFacebookVerifier({ appSecret: SECRET });
  const base = { appId: 'fb-app', productId: 'credits_1000', paymentId: 'pay-1' };

  it('accepts a request Facebook signed for this payment', async () => {
    const signedRequest = signRequest({ payment_id: 'pay-1', product_id: 'credits_1000' }, SECRET);
    expect(await verifier.verify({ ...base, signedRequest })).toMatchObject({ key: 'pay-1', quantity: 1 });
  });

  it('refuses another secret, another payment, another product, another algorithm and garbage', async () => {
    const cases: [string, string][] = [
      [signRequest({ payment_id: 'pay-1' }, 'another-secret'), 'signed_request_invalid'],
      [signRequest({ payment_id: 'pay-2' }, SECRET), 'signed_request_invalid'],
      [signRequest({ payment_id: 'pay-1', product_id: 'credits_20000' }, SECRET), 'product_mismatch'],
      [signRequest({ payment_id: 'pay-1', algorithm: 'HMAC-SHA1' }, SECRET), 'signed_request_invalid'],
      [signRequest({ payment_id: 'pay-1', status: 'initiated' }, SECRET), 'purchase_not_completed'],
      ['not-a-signed-request', 'signed_request_invalid'],
    ];
    for (const [signedRequest, code] of cases) {
      const error = await rejection(verifier.verify({ ...base, signedRequest }));
      expect(error.code, signedRequest).toBe(code);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuestLoginResponse } from '@xtalk/protocol';
import { startFakeGooglePlay, type FakeGooglePlay } from '@xtalk/payments/testing';
import { startServer, type TestServer } from '../../testing/harness.js';
import { memberLogin } from '../../testing/members.js';

/*
 * Store links as an attacker tries them: a store account id is linked only with proof from the store (a
 * purchase Google Play verifies whose account id is that id) or with the server key, so nobody squats an
 * id and its real owner can still link it. A refused link stores nothing.
 */

const SECRET = 'store-links-secret-long-enough-to-sign';
const SERVER_KEY = 'server-key-for-the-store-link-tests';
const APP = 'app.xtalk.test';
const NO_PROOF =
  'Linking a store account needs proof from the store (a verified purchase of that account) or the server key.';

describe('store links', () => {
  let play: FakeGooglePlay;
  let server: TestServer;
  beforeAll(async () => {
    play = await startFakeGooglePlay();
    server = await startServer({
      AUTH_SECRET: SECRET,
      PAYMENT_SERVER_KEY: SERVER_KEY,
      GOOGLE_PLAY_SERVICE_ACCOUNT: JSON.stringify(play.serviceAccount),
      GOOGLE_PLAY_API_URL: play.apiUrl,
    });
  });
  afterAll(async () => {
    await server?.close();
    await play?.close();
  });

  let tokens = 0;
  /** A purchase Google Play vouches for, made by `accountId` (none: the app attached no account). */
  function purchaseBy(accountId?: string) {
    const purchaseToken = `store-link-token-${(tokens += 1)}`;
    play.purchases.set(purchaseToken, {
      packageName: APP,
      productId: 'credits_1000',
      purchaseState: 0,
      ...(accountId ? { obfuscatedExternalAccountId: accountId } : {}),
    });
    return { appId: APP, productId: 'credits_1000', purchaseToken };
  }

  const link = (login: GuestLoginResponse, payload: object, headers: Record<string, string> = {}) =>
    server.app.inject({
      method: 'POST',
      url: '/api/player/link',
      headers: { authorization: `Bearer ${login.token}`, ...headers },
      payload: { provider: 'store', store: 'google', ...payload },
    });
  const storeLinks = async (login: GuestLoginResponse) =>
    (
      await server.app.inject({
        method: 'GET',
        url: '/api/player/links',
        headers: { authorization: `Bearer ${login.token}` },
      })
    )
      .json()
      .links.filter((l: { provider: string }) => l.provider === 'store');

  it('refuses an id without proof, so its owner can still link it with a purchase of theirs', async () => {
    const mallory = await memberLogin(server, SECRET, 'store-mallory');
    const owner = await memberLogin(server, SECRET, 'store-owner');
    for (const [payload, headers] of [
      [{ accountId: 'acct-owner' }, {}],
      [{ accountId: 'acct-owner', store: 'facebook' }, {}],
      [{ accountId: 'acct-owner' }, { 'x-server-key': 'not-the-server-key-at-all' }],
    ] as const) {
      const refused = await link(mallory, payload, headers);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'forbidden', message: NO_PROOF });
    }
    expect(await storeLinks(mallory)).toEqual([]);

    const linked = await link(owner, { accountId: 'acct-owner', purchase: purchaseBy('acct-owner') });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(await storeLinks(owner)).toEqual([{ provider: 'store', issuer: 'google', subject: 'acct-owner' }]);
  });

  it("refuses another account's purchase, one naming no account and one the store does not know", async () => {
    const mallory = await memberLogin(server, SECRET, 'store-mallory-2');
    const others = await link(mallory, { accountId: 'acct-victim', purchase: purchaseBy('acct-mallory') });
    expect(others.statusCode).toBe(403);
    expect(others.json().message).toBe('The purchase was not made by this store account.');
    expect((await link(mallory, { accountId: 'acct-victim', purchase: purchaseBy() })).statusCode).toBe(403);
    const unknown = await link(mallory, {
      accountId: 'acct-victim',
      purchase: { appId: APP, productId: 'credits_1000', purchaseToken: 'never-issued' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('purchase_token_invalid');
    expect(await storeLinks(mallory)).toEqual([]);
  });

  it('links any id with the server key; an id another player holds stays theirs', async () => {
    const first = await memberLogin(server, SECRET, 'store-first');
    const second = await memberLogin(server, SECRET, 'store-second');
    const vouched = await link(
      first,
      { accountId: 'acct-vouched', store: 'apple' },
      { 'x-server-key': SERVER_KEY },
    );
    expect(vouched.statusCode, vouched.body).toBe(200);
    const taken = await link(
      second,
      { accountId: 'acct-vouched', store: 'apple' },
      { 'x-server-key': SERVER_KEY },
    );
    expect(taken.statusCode).toBe(409);
    expect(await storeLinks(second)).toEqual([]);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Balance, TxnListResponse } from '@xtalk/protocol';
import { createOrdersRepo } from './orders-repo.js';
import { expectBalanced, member, startPaymentServer, type TestService } from './testing/payment-server.js';
import { startPurchase, submitCheckoutForm } from './testing/wallet-calls.js';

/*
 * The client wallet calls and the built-in TEST MODE checkout (no Stripe configured), through app.inject.
 */

type Login = Awaited<ReturnType<typeof member>>;
let server: TestService;
let alice: Login;

const auth = (login: Login) => login.headers;

const purchase = (login: Login, amount: number) => startPurchase(server.app, auth(login), amount);

async function balance(login: Login): Promise<Balance> {
  const response = await server.app.inject({
    method: 'GET',
    url: '/api/wallet/balance?currency=t_free',
    headers: auth(login),
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

const status = async (login: Login, orderId: string) =>
  (
    await server.app.inject({
      method: 'GET',
      url: `/api/wallet/purchase/status?orderId=${orderId}`,
      headers: auth(login),
    })
  ).json();

const submit = (path: string, login: Login = alice) => submitCheckoutForm(server.app, path, auth(login));

beforeAll(async () => {
  server = await startPaymentServer({ PUBLIC_URL: 'http://xtalk.test:8787' });
  alice = await member(server);
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await expectBalanced(server, alice.id);
});

describe('wallet routes', () => {
  it('need a session, in their fixed words', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/wallet/balance?currency=t_free' });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('No session found, please login.');
  });

  it('start a signed-in user at the daily allowance and list one wallet', async () => {
    expect(await balance(alice)).toEqual({ free: 1000, premium: 0 });
    const list = await server.app.inject({ method: 'GET', url: '/api/wallet/list', headers: auth(alice) });
    expect(list.json()).toEqual({ items: [{ currency: 't_free', free: 1000, premium: 0 }] });
    const bad = await server.app.inject({
      method: 'GET',
      url: '/api/wallet/balance?currency=usd',
      headers: auth(alice),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("currency must be 't_free'");
  });

  it('refuse an amount that is not a package, and guests, changing nothing', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/wallet/purchase',
      headers: auth(alice),
      payload: { currency: 't_free', amount: 999 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('amount: amount must be one of 1000, 5000, 20000.');
    const guest = await member(server, 'guest');
    const refused = await server.app.inject({
      method: 'POST',
      url: '/api/wallet/purchase',
      headers: auth(guest),
      payload: { currency: 't_free', amount: 1000 },
    });
    expect(refused.statusCode).toBe(403);
    expect(await createOrdersRepo(server.db, { now: Date.now }).count()).toBe(0);
  });

  it('buy 1,000 credits through the TEST MODE page, credited once however often Pay is pressed', async () => {
    const { orderId, checkoutURL } = await purchase(alice, 1000);
    expect(checkoutURL).toBe(`http://xtalk.test:8787/api/payments/test-checkout/${orderId}`);
    expect(await status(alice, orderId)).toEqual({ orderId, status: 'pending' });

    const page = await server.app.inject({ method: 'GET', url: new URL(checkoutURL).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<div class="banner" role="alert">TEST MODE</div>');
    expect(page.body).toMatch(/<button class="pay" type="submit">Pay<\/button>/);
    expect(page.body).toMatch(/<button class="cancel" type="submit">Cancel<\/button>/);
    expect(page.body).toContain('¥149');

    for (let i = 0; i < 3; i += 1) {
      const paid = await submit(`/api/payments/test-checkout/${orderId}/pay`);
      expect(paid.statusCode).toBe(303);
      expect(paid.headers.location).toBe(`http://xtalk.test:8787/checkout?status=success&orderId=${orderId}`);
    }
    expect(await status(alice, orderId)).toEqual({ orderId, status: 'paid' });
    expect(await balance(alice)).toEqual({ free: 1000, premium: 1000 });
    const txns: TxnListResponse = (
      await server.app.inject({ method: 'GET', url: '/api/wallet/txn/list', headers: auth(alice) })
    ).json();
    expect(txns).toMatchObject({ page: 0, limit: 100 });
    expect(txns.items.filter((t) => t.kind === 'purchase')).toEqual([
      expect.objectContaining({ premium: 1000, free: 0, reference: orderId, status: 'completed' }),
    ]);
    // a paid order's page sends the buyer to the landing page instead of offering Pay again
    const again = await server.app.inject({ method: 'GET', url: new URL(checkoutURL).pathname });
    expect(again.statusCode).toBe(303);
  });

  it('the TEST MODE page speaks Japanese when asked (?lang=ja) or preferred by the browser', async () => {
    const { checkoutURL } = await purchase(alice, 5000);
    const path = new URL(checkoutURL).pathname;
    const open = (url: string, acceptLanguage?: string) =>
      server.app.inject({
        method: 'GET',
        url,
        ...(acceptLanguage ? { headers: { 'accept-language': acceptLanguage } } : {}),
      });
    const asked = await open(`${path}?lang=ja`, 'en-US,en;q=0.9');
    expect(asked.body).toContain('<html lang="ja">');
    expect(asked.body).toContain('TEST MODE · テストモード');
    expect(asked.body).toContain('5,000 クレジット');
    expect(asked.body).toMatch(/<button class="pay" type="submit">支払う<\/button>/);
    expect(asked.body).toMatch(/<button class="cancel" type="submit">キャンセル<\/button>/);
    expect(asked.body).not.toContain('no money is');
    expect((await open(path, 'fr-FR, en;q=0.5, ja;q=0.8')).body).toContain('<html lang="ja">');
    expect((await open(path, 'en-GB, ja;q=0.8')).body).toContain('<html lang="en">');
    expect((await open(`${path}?lang=en`, 'ja')).body).toContain('>Pay</button>');
    expect((await open(path)).body).toContain('<html lang="en">');
    const missing = await open('/api/payments/test-checkout/ord_nope', 'ja');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('そのテスト注文はありません。');
  });

  it('cancel an order; a canceled order cannot be paid', async () => {
    const before = await balance(alice);
    const { orderId } = await purchase(alice, 5000);
    const canceled = await submit(`/api/payments/test-checkout/${orderId}/cancel`);
    expect(canceled.headers.location).toBe(
      `http://xtalk.test:8787/checkout?status=canceled&orderId=${orderId}`,
    );
    const paid = await submit(`/api/payments/test-checkout/${orderId}/pay`);
    expect(paid.headers.location).toContain('status=canceled');
    expect(await status(alice, orderId)).toEqual({ orderId, status: 'canceled' });
    expect(await balance(alice)).toEqual(before);
  });

  it("do not show one user's order to another; unknown orders are 404", async () => {
    const { orderId } = await purchase(alice, 1000);
    const bob = await member(server);
    const response = await server.app.inject({
      method: 'GET',
      url: `/api/wallet/purchase/status?orderId=${orderId}`,
      headers: auth(bob),
    });
    expect(response.statusCode).toBe(404);
    expect((await submit('/api/payments/test-checkout/ord_nope/pay')).statusCode).toBe(404);
    const missing = await server.app.inject({
      method: 'GET',
      url: '/api/wallet/purchase/status',
      headers: auth(alice),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('orderId is required.');
  });

  it('page the transaction list and refuse a bad limit', async () => {
    const ledger = server.ledger;
    const carol = await member(server);
    for (let i = 0; i < 3; i += 1)
      await ledger.spend({ userId: carol.id, key: `s${i}`, cause: 'translation', amount: 1 });
    const page = await server.app.inject({
      method: 'GET',
      url: '/api/wallet/txn/list?limit=2&page=1',
      headers: auth(carol),
    });
    expect(page.json()).toMatchObject({
      page: 1,
      limit: 2,
      items: [{ kind: 'spend' }, { kind: 'daily_grant' }],
    });
    const reversed = await server.app.inject({
      method: 'GET',
      url: '/api/wallet/txn/list?status=reversed',
      headers: auth(carol),
    });
    expect(reversed.json().items).toEqual([]);
    const bad = await server.app.inject({
      method: 'GET',
      url: '/api/wallet/txn/list?limit=0',
      headers: auth(carol),
    });
    expect(bad.statusCode).toBe(400);
  });

  it('record a withdraw request without moving credits, and refuse more than the premium part', async () => {
    const before = await balance(alice);
    const tooMuch = await server.app.inject({
      method: 'POST',
      url: '/api/wallet/withdraw-request',
      headers: auth(alice),
      payload: { currency: 't_free', amount: before.premium + 1 },
    });
    expect(tooMuch.statusCode).toBe(400);
    const ok = await server.app.inject({
      method: 'POST',
      url: '/api/wallet/withdraw-request',
      headers: auth(alice),
      payload: { currency: 't_free', amount: 500, note: 'please' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'pending', currency: 't_free', amount: 500 });
    expect(await balance(alice)).toEqual(before);
  });
});

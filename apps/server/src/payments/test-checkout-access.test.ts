import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath, ServerPath, type GuestLoginResponse, type PurchaseResponse } from '@xtalk/protocol';
import { submitCheckoutForm } from '@xtalk/payments/testing';
import { ledgerOf } from '../testing/credits.js';
import { startServer, type TestServer } from '../testing/harness.js';
import { memberLogin } from '../testing/members.js';

/*
 * No free credits in production: without Stripe, purchases are refused unless TEST_CHECKOUT=on, and
 * then Pay and Cancel take the session of the order's owner, never the order id alone. Links point at
 * PUBLIC_URL whatever Host the request names; the start-up log says once that TEST MODE is on.
 */

const SECRET = 'test-checkout-access-secret-long-enough';
const SERVER_KEY = 'payment-server-key-for-access-tests';
const PUBLIC = 'https://xtalk.example';
const FORGED_HOST = { host: 'evil.example', 'x-forwarded-host': 'evil.example' };
const WARNING = 'TEST MODE checkout is on';

/** A production server (PUBLIC_URL set, no Stripe) whose log lines are kept. */
async function productionServer(env: Record<string, string>) {
  const lines: { level: number; msg: string }[] = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
  const server = await startServer(
    {
      NODE_ENV: 'production',
      PUBLIC_URL: PUBLIC,
      AUTH_SECRET: SECRET,
      PAYMENT_SERVER_KEY: SERVER_KEY,
      ...env,
    },
    { logger: { level: 'info', stream } },
  );
  return { server, lines };
}

const bearer = (login: GuestLoginResponse) => ({ authorization: `Bearer ${login.token}` });

const purchase = (server: TestServer, login: GuestLoginResponse, headers: Record<string, string> = {}) =>
  server.app.inject({
    method: 'POST',
    url: ApiPath.walletPurchase,
    headers: { ...bearer(login), ...headers },
    payload: { currency: 't_free', amount: 1000 },
  });

describe('production without Stripe and without TEST_CHECKOUT', () => {
  let server: TestServer;
  let lines: { level: number; msg: string }[];
  beforeAll(async () => {
    ({ server, lines } = await productionServer({}));
  });
  afterAll(() => server?.close());

  it('says plainly that purchases are not available, and stores no order', async () => {
    const erin = await memberLogin(server, SECRET, 'no-test-mode-erin');
    const refused = await purchase(server, erin);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'Purchases are not available on this server.',
      code: 'purchases_unavailable',
    });
    const byServer = await server.app.inject({
      method: 'POST',
      url: ServerPath.walletPurchase,
      headers: { 'x-server-key': SERVER_KEY },
      payload: { gctId: erin.user.userId, currency: 't_free', amount: 1000 },
    });
    expect(byServer.statusCode).toBe(503);
    expect(byServer.json().code).toBe('purchases_unavailable');
    const orders = await server.app.inject({
      method: 'GET',
      url: `${ServerPath.walletPurchaseList}?gctId=${erin.user.userId}`,
      headers: { 'x-server-key': SERVER_KEY },
    });
    expect(orders.json().items).toEqual([]);
    expect(await ledgerOf(server).balance(erin.user.userId)).toEqual({ free: 1000, premium: 0 });
    // no TEST MODE page to reach either
    const pay = await submitCheckoutForm(server.app, ApiPath.testCheckoutPay('ord_any'), bearer(erin));
    expect(pay.statusCode).toBe(404);
    expect(lines.some((line) => line.msg.includes(WARNING))).toBe(false);
  });
});

describe('TEST_CHECKOUT=on in production', () => {
  let server: TestServer;
  let lines: { level: number; msg: string }[];
  beforeAll(async () => {
    ({ server, lines } = await productionServer({ TEST_CHECKOUT: 'on' }));
  });
  afterAll(() => server?.close());

  it('warns once in the start-up log', () => {
    const warnings = lines.filter((line) => line.msg.includes(WARNING));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);
  });

  it("refuses Pay and Cancel without a session or with another player's, then pays with the owner's", async () => {
    const erin = await memberLogin(server, SECRET, 'test-mode-erin');
    const bob = await memberLogin(server, SECRET, 'test-mode-bob');
    const started = await purchase(server, erin, FORGED_HOST);
    expect(started.statusCode, started.body).toBe(200);
    const { orderId, checkoutURL } = started.json() as PurchaseResponse;
    expect(checkoutURL).toBe(`${PUBLIC}${ApiPath.testCheckout(orderId)}`);
    const setCookie = String(started.headers['set-cookie']);
    expect(setCookie).toMatch(
      /; Path=\/api\/payments\/test-checkout; Max-Age=\d+; HttpOnly; SameSite=Strict; Secure$/,
    );
    const cookie = setCookie.split(';')[0]!;

    const pay = ApiPath.testCheckoutPay(orderId);
    const cancel = ApiPath.testCheckoutCancel(orderId);
    for (const path of [pay, cancel]) {
      const others = await submitCheckoutForm(server.app, path, bearer(bob));
      expect(others.statusCode).toBe(403);
      expect(others.body).toContain('This order belongs to another player.');
      expect((await submitCheckoutForm(server.app, path, {})).statusCode).toBe(401);
      const forged = await submitCheckoutForm(server.app, path, { cookie: 'xtalk_checkout=forged' });
      expect(forged.statusCode).toBe(401);
    }
    const status = await server.app.inject({
      method: 'GET',
      url: `${ApiPath.walletPurchaseStatus}?orderId=${orderId}`,
      headers: bearer(erin),
    });
    expect(status.json().status).toBe('pending');
    expect(await ledgerOf(server).balance(erin.user.userId)).toEqual({ free: 1000, premium: 0 });

    // the page still says TEST MODE; the owner's window pays with the cookie the purchase left
    const page = await server.app.inject({ method: 'GET', url: ApiPath.testCheckout(orderId) });
    expect(page.body).toContain('TEST MODE');
    const paid = await submitCheckoutForm(server.app, pay, { cookie, ...FORGED_HOST });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${PUBLIC}/checkout?status=success&orderId=${orderId}`);
    expect(await ledgerOf(server).balance(erin.user.userId)).toEqual({ free: 1000, premium: 1000 });
  });
});

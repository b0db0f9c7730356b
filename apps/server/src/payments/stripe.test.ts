import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GuestLoginResponse, PurchaseResponse } from '@xtalk/protocol';
import { dbOf, expectBalancesEqualSumOfRows, ledgerOf } from '../test/credits.js';
import { startServer, type TestServer } from '../test/harness.js';
import { memberLogin } from '../test/members.js';

/*
 * The Stripe path: the official SDK pointed (STRIPE_API_URL -> host/port/protocol) at a Stripe-compatible
 * HTTP server started here, and webhooks signed with the SDK's own test-header helper.
 */

const SECRET = 'stripe-test-auth-secret-long-enough';
const WEBHOOK_SECRET = 'whsec_test_secret_for_xtalk';

interface CreateRequest {
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  form: Record<string, string>;
}

/** Just enough of Stripe's API: POST /v1/checkout/sessions (form-encoded, as the SDK sends it). */
async function startFakeStripe() {
  const requests: CreateRequest[] = [];
  let failNext = false;
  let count = 0;
  const read = async (request: IncomingMessage) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    return body;
  };
  const server: Server = createServer((request, response) => {
    void read(request).then((body) => {
      response.setHeader('content-type', 'application/json');
      if (request.method !== 'POST' || request.url !== '/v1/checkout/sessions') {
        response.statusCode = 404;
        response.end(
          JSON.stringify({ error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } }),
        );
        return;
      }
      const form = Object.fromEntries(new URLSearchParams(body));
      requests.push({
        authorization: request.headers.authorization,
        idempotencyKey: request.headers['idempotency-key'] as string | undefined,
        form,
      });
      if (failNext) {
        failNext = false;
        response.statusCode = 400;
        response.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Bad things' } }));
        return;
      }
      count += 1;
      const id = `cs_test_${count}`;
      response.end(
        JSON.stringify({
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          metadata: { orderId: form['metadata[orderId]'] },
          payment_status: 'unpaid',
          status: 'open',
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    failOnce: () => {
      failNext = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let fake: Awaited<ReturnType<typeof startFakeStripe>>;
let server: TestServer;
let alice: GuestLoginResponse;
const signer = new Stripe('sk_test_signer_only');

async function purchase(amount: number): Promise<PurchaseResponse> {
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/wallet/purchase',
    headers: { authorization: `Bearer ${alice.token}` },
    payload: { currency: 't_free', amount },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function event(
  type: string,
  session: Record<string, unknown>,
  id = `evt_${Math.random().toString(36).slice(2)}`,
) {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object: { object: 'checkout.session', ...session } },
  });
}

function deliver(
  payload: string,
  signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
) {
  return server.app.inject({
    method: 'POST',
    url: '/api/payments/stripe/webhook',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    payload,
  });
}

const balance = () => ledgerOf(server).balance(alice.user.userId);
const orderStatus = async (orderId: string) =>
  (
    await server.app.inject({
      method: 'GET',
      url: `/api/wallet/purchase/status?orderId=${orderId}`,
      headers: { authorization: `Bearer ${alice.token}` },
    })
  ).json().status;

beforeAll(async () => {
  fake = await startFakeStripe();
  server = await startServer({
    AUTH_SECRET: SECRET,
    PUBLIC_URL: 'https://xtalk.example',
    STRIPE_SECRET_KEY: 'sk_test_xtalk',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: fake.url,
  });
  alice = await memberLogin(server, SECRET, 'alice-stripe');
});
afterAll(async () => {
  await server.close();
  await fake.close();
});
afterEach(async () => {
  await expectBalancesEqualSumOfRows(dbOf(server));
});

describe('Stripe checkout', () => {
  it('creates a Checkout Session with the price inline in JPY and the order id in metadata', async () => {
    const { orderId, checkoutURL } = await purchase(5000);
    expect(checkoutURL).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_\d+$/);
    const sent = fake.requests.at(-1)!;
    expect(sent.authorization).toBe('Bearer sk_test_xtalk');
    expect(sent.idempotencyKey).toBe(`checkout:${orderId}`);
    expect(sent.form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'jpy',
      'line_items[0][price_data][unit_amount]': '499',
      'metadata[orderId]': orderId,
      success_url: `https://xtalk.example/checkout?status=success&orderId=${orderId}`,
      cancel_url: `https://xtalk.example/checkout?status=canceled&orderId=${orderId}`,
    });
    expect(await orderStatus(orderId)).toBe('pending');
  });

  it('credits one event delivered 10 times exactly once, answering 2xx every time', async () => {
    const before = await balance();
    const { orderId, checkoutURL } = await purchase(1000);
    const sessionId = checkoutURL.split('/').at(-1);
    const payload = event('checkout.session.completed', {
      id: sessionId,
      metadata: { orderId },
      payment_status: 'paid',
      amount_total: 149,
      currency: 'jpy',
    });
    const replies = await Promise.all(Array.from({ length: 10 }, () => deliver(payload)));
    expect(replies.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(await balance()).toEqual({ free: before.free, premium: before.premium + 1000 });
    expect(await orderStatus(orderId)).toBe('paid');
    const { rows } = await dbOf(server).query(
      `select id from credit_txns where kind = 'purchase' and reference = $1`,
      [orderId],
    );
    expect(rows).toHaveLength(1);
  });

  it('refuses a bad or missing signature with 400 and changes nothing', async () => {
    const before = await balance();
    const { orderId, checkoutURL } = await purchase(20_000);
    const payload = event('checkout.session.completed', {
      id: checkoutURL.split('/').at(-1),
      metadata: { orderId },
      payment_status: 'paid',
    });
    const forged = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
    const bad = await deliver(payload, forged);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('The Stripe signature does not match this payload.');
    const tampered = await deliver(
      payload.replace('"paid"', '"paid" '),
      signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    );
    expect(tampered.statusCode).toBe(400);
    const missing = await server.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(missing.statusCode).toBe(400);
    expect(await balance()).toEqual(before);
    expect(await orderStatus(orderId)).toBe('pending');
  });

  it('answers 2xx to events it does not use, and cancels an order whose session expired', async () => {
    expect((await deliver(event('customer.created', { id: 'cus_1' }))).statusCode).toBe(200);
    expect(
      (
        await deliver(
          event('checkout.session.completed', { id: 'cs_x', metadata: { orderId: 'ord_unknown' } }),
        )
      ).statusCode,
    ).toBe(200);
    const { orderId, checkoutURL } = await purchase(1000);
    const expired = event('checkout.session.expired', {
      id: checkoutURL.split('/').at(-1),
      metadata: { orderId },
    });
    expect((await deliver(expired)).statusCode).toBe(200);
    expect(await orderStatus(orderId)).toBe('canceled');
  });

  it('waits for a delayed payment method to succeed before crediting', async () => {
    const before = await balance();
    const { orderId, checkoutURL } = await purchase(1000);
    const session = { id: checkoutURL.split('/').at(-1), metadata: { orderId } };
    await deliver(event('checkout.session.completed', { ...session, payment_status: 'unpaid' }));
    expect(await orderStatus(orderId)).toBe('pending');
    await deliver(event('checkout.session.async_payment_succeeded', { ...session, payment_status: 'paid' }));
    expect(await orderStatus(orderId)).toBe('paid');
    expect((await balance()).premium).toBe(before.premium + 1000);
  });

  it('has no test checkout, and says so when Stripe refuses the session', async () => {
    const { orderId } = await purchase(1000);
    const page = await server.app.inject({
      method: 'POST',
      url: `/api/payments/test-checkout/${orderId}/pay`,
    });
    expect(page.statusCode).toBe(404);
    fake.failOnce();
    const refused = await server.app.inject({
      method: 'POST',
      url: '/api/wallet/purchase',
      headers: { authorization: `Bearer ${alice.token}` },
      payload: { currency: 't_free', amount: 1000 },
    });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toContain('could not start the checkout');
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeStripe,
  stripeEvent as event,
  stripeSignature,
  type FakeStripe,
} from './testing/fake-stripe.js';
import { expectBalanced, member, startPaymentServer, type TestService } from './testing/payment-server.js';
import { startPurchase } from './testing/wallet-calls.js';

/*
 * The Stripe path: the official SDK pointed (STRIPE_API_URL -> host/port/protocol) at a Stripe-compatible
 * HTTP server started here, and webhooks signed with the SDK's own test-header helper.
 */

const WEBHOOK_SECRET = 'whsec_test_secret_for_xtalk';

let fake: FakeStripe;
let server: TestService;
let alice: { id: string; headers: Record<string, string> };

const purchase = (amount: number) => startPurchase(server.app, alice.headers, amount);

function deliver(payload: string, signature = stripeSignature(payload, WEBHOOK_SECRET)) {
  return server.app.inject({
    method: 'POST',
    url: '/api/payments/stripe/webhook',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    payload,
  });
}

const balance = () => server.ledger.balance(alice.id);
const orderStatus = async (orderId: string) =>
  (
    await server.app.inject({
      method: 'GET',
      url: `/api/wallet/purchase/status?orderId=${orderId}`,
      headers: alice.headers,
    })
  ).json().status;

beforeAll(async () => {
  fake = await startFakeStripe();
  server = await startPaymentServer({
    PUBLIC_URL: 'https://xtalk.example',
    STRIPE_SECRET_KEY: 'sk_test_xtalk',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: fake.url,
  });
  alice = await member(server);
});
afterAll(async () => {
  await server.close();
  await fake.close();
});
afterEach(async () => {
  await expectBalanced(server, alice.id);
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
    const txns = await server.ledger.list(alice.id, { limit: 100, page: 0 });
    expect(txns.filter((t) => t.kind === 'purchase' && t.reference === orderId)).toHaveLength(1);
  });

  it('refuses a bad or missing signature with 400 and changes nothing', async () => {
    const before = await balance();
    const { orderId, checkoutURL } = await purchase(20_000);
    const payload = event('checkout.session.completed', {
      id: checkoutURL.split('/').at(-1),
      metadata: { orderId },
      payment_status: 'paid',
    });
    const forged = stripeSignature(payload, 'whsec_someone_else');
    const bad = await deliver(payload, forged);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('The Stripe signature does not match this payload.');
    const tampered = await deliver(
      payload.replace('"paid"', '"paid" '),
      stripeSignature(payload, WEBHOOK_SECRET),
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
      headers: alice.headers,
      payload: { currency: 't_free', amount: 1000 },
    });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toContain('could not start the checkout');
  });
});

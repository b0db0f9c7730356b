import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SystemFrame } from '@xtalk/protocol';
import { dbOf, expectBalancesEqualSumOfRows, ledgerOf } from '../testing/credits.js';
import { startFakeStripe, stripeEvent, stripeSignature, type FakeStripe } from '@xtalk/payments/testing';
import { joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';
import { memberLogin } from '../testing/members.js';
import { scratchDatabase } from '../testing/scratch-database.js';

/*
 * `npm run test:services`: the ledger on a real PostgreSQL with two nodes (two app instances, Redis bus)
 * sharing one database: no overdraft under 100 concurrent spends split between them, one idempotency key
 * applied once, one Stripe event delivered 10 times (to both nodes) credited once, the daily top-up once
 * across Tokyo midnight, and BALANCE reaching a connection on the other node.
 */
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const database = scratchDatabase('xtalk_credits');
const SECRET = 'credits-services-secret-shared-by-both';
const WEBHOOK_SECRET = 'whsec_services_test';

/** One clock for both nodes; tests move it across Tokyo midnight. */
let offsetMs = 0;
const clock = { now: () => Date.now() + offsetMs };

describe('credits on PostgreSQL with two nodes', () => {
  let fake: FakeStripe;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    fake = await startFakeStripe();
    await database.create();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      AUTH_SECRET: SECRET,
      STRIPE_SECRET_KEY: 'sk_test_services',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: fake.url,
    };
    [a, b] = await Promise.all([startServer(env, { clock }), startServer(env, { clock })]);
  });
  afterAll(async () => {
    await Promise.allSettled([a?.close(), b?.close()]);
    await database.drop();
    await fake?.close();
  });
  /** A signed-in account (the daily allowance of accounts, not of guests). */
  const member = async (name: string) =>
    (await memberLogin(a, SECRET, `${name}-${randomBytes(4).toString('hex')}`)).user.userId;

  afterEach(async () => {
    offsetMs = 0;
    await expectBalancesEqualSumOfRows(dbOf(a));
  });

  it('never overdraws under 100 concurrent spends split between the nodes', async () => {
    const userId = await member('spender');
    await ledgerOf(a).credit({ userId, key: 'buy', cause: 'order', amount: 500, part: 'premium' });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        ledgerOf(i % 2 ? a : b).spend({ userId, key: `spend-${i}`, cause: 'translation', amount: 40 }),
      ),
    );
    const spent = results.filter((r) => r.ok).length;
    expect(spent).toBe(Math.floor(1500 / 40));
    expect(await ledgerOf(b).balance(userId)).toEqual({ free: 0, premium: 1500 - spent * 40 });
  });

  it('applies one idempotency key once, whichever node gets it', async () => {
    const userId = await member('keyed');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        ledgerOf(i % 2 ? a : b).credit({
          userId,
          key: 'grant:1',
          cause: 'admin',
          amount: 50,
          part: 'premium',
        }),
      ),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(await ledgerOf(a).balance(userId)).toEqual({ free: 1000, premium: 50 });
  });

  it('credits one Stripe event delivered 10 times to both nodes once, and BALANCE crosses nodes', async () => {
    const buyer = await memberLogin(a, SECRET, `buyer-${randomBytes(4).toString('hex')}`);
    const { roomId } = await joinRoom(b.app, buyer.token, null);
    const atB = await TestClient.join(b, buyer, roomId);
    const grown = atB.nextNew<SystemFrame>(
      (f) => f.type === 'system' && f.message === 'BALANCE' && f.balance?.premium === 1000,
    );
    const order = await a.app.inject({
      method: 'POST',
      url: '/api/wallet/purchase',
      headers: { authorization: `Bearer ${buyer.token}` },
      payload: { currency: 't_free', amount: 1000 },
    });
    const { orderId, checkoutURL } = order.json();
    const payload = stripeEvent('checkout.session.completed', {
      id: checkoutURL.split('/').at(-1),
      metadata: { orderId },
      payment_status: 'paid',
    });
    const signature = stripeSignature(payload, WEBHOOK_SECRET);
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).app.inject({
          method: 'POST',
          url: '/api/payments/stripe/webhook',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          payload,
        }),
      ),
    );
    expect(replies.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect((await grown).balance).toEqual({ free: 1000, premium: 1000 });
    const purchases = (await ledgerOf(a).list(buyer.user.userId, { limit: 100, page: 0 })).filter(
      (t) => t.kind === 'purchase',
    );
    expect(purchases).toHaveLength(1);
    atB.close();
  });

  it('tops free credits up once across Tokyo midnight, both nodes reading at once', async () => {
    const userId = await member('daily');
    const toTokyo = (iso: string) => {
      offsetMs = Date.parse(iso) - Date.now();
    };
    toTokyo('2026-12-31T14:59:00Z');
    await ledgerOf(a).spend({ userId, key: 's', cause: 'translation', amount: 600 });
    toTokyo('2026-12-31T15:00:01Z');
    const reads = await Promise.all(
      Array.from({ length: 10 }, (_, i) => ledgerOf(i % 2 ? a : b).balance(userId)),
    );
    expect(reads).toEqual(Array(10).fill({ free: 1000, premium: 0 }));
    const grants = (await ledgerOf(a).list(userId, { limit: 100, page: 0 })).filter(
      (t) => t.kind === 'daily_grant',
    );
    expect(grants.map((g) => [g.reference, g.amount])).toEqual([
      ['2027-01-01', 600],
      ['2026-12-31', 1000],
    ]);
  });
});

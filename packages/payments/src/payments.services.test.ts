import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentPath, ServerPath } from '@xtalk/protocol';
import { startFakeGooglePlay, type FakeGooglePlay } from './testing/google-play-server.js';
import {
  call,
  expectBalanced,
  newPlayer,
  startPaymentServer,
  type TestService,
} from './testing/payment-server.js';
import { scratchDatabase } from './testing/scratch-database.js';

/*
 * `npm run test:services`: the payment service on two nodes sharing one real PostgreSQL. Calls racing
 * on both nodes still credit a purchase, confirm a transaction and approve a withdrawal exactly once.
 */
const database = scratchDatabase('xtalk_pay');

describe('payment service on two nodes and PostgreSQL', () => {
  let play: FakeGooglePlay;
  let a: TestService;
  let b: TestService;

  beforeAll(async () => {
    await database.create();
    play = await startFakeGooglePlay();
    const env = {
      DATABASE_URL: database.url,
      GOOGLE_PLAY_SERVICE_ACCOUNT: JSON.stringify(play.serviceAccount),
      GOOGLE_PLAY_API_URL: play.apiUrl,
    };
    a = await startPaymentServer(env);
    b = await startPaymentServer(env);
  });
  afterAll(async () => {
    await Promise.allSettled([a?.close(), b?.close(), play?.close()]);
    await database.drop();
  });

  /** The same call ten times, alternating between the nodes, all at once. */
  const race = (method: 'GET' | 'POST', url: string, body: unknown) =>
    Promise.all(Array.from({ length: 10 }, (_, i) => call(i % 2 ? b : a, method, url, body)));

  it('credits one purchase once when both nodes verify it at the same time', async () => {
    const gctId = newPlayer(a);
    b.players.add(gctId);
    play.purchases.set('race-token', {
      packageName: 'com.xtalk.app',
      productId: 'credits_5000',
      purchaseState: 0,
    });
    const answers = await race('POST', PaymentPath.verify, {
      gctId,
      appId: 'com.xtalk.app',
      platform: 'google',
      productId: 'credits_5000',
      purchaseToken: 'race-token',
    });
    for (const answer of answers)
      expect(answer.json(), answer.body).toMatchObject({ verified: true, credited: 5000 });
    const balance = await call(b, 'GET', `${ServerPath.walletBalance}?gctId=${gctId}`);
    expect(balance.json()).toEqual({ free: 1000, premium: 5000 });
    await expectBalanced(a, gctId);
  });

  it('confirms a transaction and approves a withdrawal once across nodes', async () => {
    const gctId = newPlayer(a);
    b.players.add(gctId);
    const { txn } = (
      await call(a, 'POST', ServerPath.txnCreate, { gctId, amount: 4000, idempotencyKey: 'race' })
    ).json();
    const confirms = await race('POST', ServerPath.txnConfirm, { id: txn.id });
    for (const confirmed of confirms) expect(confirmed.json().txn?.status, confirmed.body).toBe('confirmed');
    const { request } = (await call(b, 'POST', ServerPath.withdrawCreate, { gctId, amount: 3000 })).json();
    const approvals = await race('POST', ServerPath.withdrawApprove, { id: request.id });
    for (const approval of approvals) expect(approval.json().request?.status, approval.body).toBe('approved');
    const balance = await call(a, 'GET', `${ServerPath.walletBalance}?gctId=${gctId}`);
    expect(balance.json()).toEqual({ free: 1000, premium: 1000 });
    await expectBalanced(b, gctId);
  });
});

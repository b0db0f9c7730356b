import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentPath, ServerPath } from '@xtalk/protocol';
import { startFakeGooglePlay, type FakeGooglePlay } from './testing/google-play-server.js';
import {
  asAdmin,
  call,
  expectBalanced,
  newPlayer,
  snapshot,
  startPaymentServer,
  type TestService,
  ADMIN_KEY,
  SERVER_KEY,
} from './testing/payment-server.js';

/* The admin calls: list a player's purchases and revoke one, its credits leaving through the ledger. */

const APP = 'com.xtalk.app';

describe('payment admin calls', () => {
  let play: FakeGooglePlay;
  let server: TestService;
  let tokens = 0;

  beforeAll(async () => {
    play = await startFakeGooglePlay();
    server = await startPaymentServer({
      GOOGLE_PLAY_SERVICE_ACCOUNT: JSON.stringify(play.serviceAccount),
      GOOGLE_PLAY_API_URL: play.apiUrl,
    });
  });
  afterAll(async () => {
    await server.close();
    await play.close();
  });

  /** A verified purchase of credits_1000 for gctId; returns its token. */
  async function bought(gctId: string): Promise<string> {
    tokens += 1;
    const token = `admin-token-${tokens}`;
    play.purchases.set(token, { packageName: APP, productId: 'credits_1000', purchaseState: 0 });
    const verified = await call(server, 'POST', PaymentPath.verify, {
      gctId,
      appId: APP,
      platform: 'google',
      productId: 'credits_1000',
      purchaseToken: token,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    return token;
  }

  const names = (gctId: string, purchaseToken: string) => ({
    appId: APP,
    platform: 'google',
    gctId,
    purchaseToken,
  });

  it('lists every purchase of a player, revoked ones too, only with the admin key', async () => {
    const gctId = await newPlayer(server);
    const first = await bought(gctId);
    const second = await bought(gctId);
    await call(server, 'DELETE', PaymentPath.adminDelete, names(gctId, first), asAdmin);

    const listed = await call(server, 'POST', PaymentPath.adminList, { gctId }, asAdmin);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(
      listed.json().items.map((p: { purchaseToken: string; status: string }) => [p.purchaseToken, p.status]),
    ).toEqual([
      [second, 'credited'],
      [first, 'revoked'],
    ]);
    const paged = await call(server, 'POST', PaymentPath.adminList, { gctId, limit: 1, page: 1 }, asAdmin);
    expect(paged.json()).toMatchObject({ page: 1, limit: 1, items: [{ purchaseToken: first }] });
    // the server's own list leaves revoked purchases out unless asked for them
    const serverList = await call(server, 'GET', `${PaymentPath.list}?userId=${gctId}&appId=${APP}`);
    expect(serverList.json().items.map((p: { purchaseToken: string }) => p.purchaseToken)).toEqual([second]);

    const missing = await call(server, 'POST', PaymentPath.adminList, { gctId }, {});
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({
      message: 'The X-Admin-Key header is required.',
      code: 'unauthorized',
    });
    const serverKeyInstead = await call(
      server,
      'POST',
      PaymentPath.adminList,
      { gctId },
      { 'x-admin-key': SERVER_KEY },
    );
    expect(serverKeyInstead.statusCode).toBe(403);
    const wrongDelete = await call(server, 'DELETE', PaymentPath.adminDelete, names(gctId, second), {
      'x-admin-key': `${ADMIN_KEY}x`,
    });
    expect(wrongDelete.statusCode).toBe(403);
    const noKeyDelete = await call(server, 'DELETE', PaymentPath.adminDelete, names(gctId, second), {});
    expect(noKeyDelete.statusCode).toBe(401);
    expect((await call(server, 'POST', PaymentPath.adminList, {}, asAdmin)).json().message).toBe(
      'gctId is required.',
    );
  });

  it('revokes a purchase through a reversal row, once, and never credits it again', async () => {
    const gctId = await newPlayer(server);
    const token = await bought(gctId);
    const revoked = await call(server, 'DELETE', PaymentPath.adminDelete, names(gctId, token), asAdmin);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().purchase).toMatchObject({ status: 'revoked', credits: 1000 });
    const balance = await call(server, 'GET', `${ServerPath.walletBalance}?gctId=${gctId}`);
    expect(balance.json()).toEqual({ free: 1000, premium: 0 });
    const rows = (await call(server, 'GET', `${ServerPath.walletTransactions}?gctId=${gctId}`)).json().items;
    expect(
      rows.map((row: { kind: string; amount: number; status: string }) => [row.kind, row.amount, row.status]),
    ).toEqual([
      ['reversal', -1000, 'completed'],
      ['purchase', 1000, 'reversed'],
      ['daily_grant', 1000, 'completed'],
    ]);

    const before = await snapshot(server);
    const again = await call(server, 'DELETE', PaymentPath.adminDelete, names(gctId, token), asAdmin);
    expect(again.json()).toEqual(revoked.json());
    const reverify = await call(server, 'POST', PaymentPath.verify, {
      ...names(gctId, token),
      productId: 'credits_1000',
    });
    expect(reverify.statusCode).toBe(409);
    expect(reverify.json().code).toBe('purchase_revoked');
    const consume = await call(server, 'POST', PaymentPath.consume, names(gctId, token));
    expect(consume.statusCode).toBe(409);
    expect(await snapshot(server)).toEqual(before);
    await expectBalanced(server, gctId);
  });

  it('refuses to revoke credits already spent, unknown purchases and bad bodies, changing nothing', async () => {
    const gctId = await newPlayer(server);
    const token = await bought(gctId);
    await call(server, 'POST', ServerPath.walletWithdraw, {
      gctId,
      amount: 500,
      part: 'premium',
      idempotencyKey: 'spent',
    });
    const before = await snapshot(server);
    const spent = await call(server, 'DELETE', PaymentPath.adminDelete, names(gctId, token), asAdmin);
    expect(spent.statusCode).toBe(409);
    expect(spent.json().code).toBe('insufficient_credits');
    const unknown = await call(server, 'DELETE', PaymentPath.adminDelete, names(gctId, 'nothing'), asAdmin);
    expect(unknown.statusCode).toBe(404);
    const otherApp = await call(
      server,
      'DELETE',
      PaymentPath.adminDelete,
      { ...names(gctId, token), appId: 'x' },
      asAdmin,
    );
    expect(otherApp.statusCode).toBe(404);
    const bad = await call(server, 'DELETE', PaymentPath.adminDelete, { appId: APP, gctId }, asAdmin);
    expect(bad.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'appId, platform, gctId and purchaseToken are required.',
      code: 'invalid_request',
    });
    expect(await snapshot(server)).toEqual(before);
    await expectBalanced(server, gctId);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath, ServerPath } from '@xtalk/protocol';
import {
  call,
  expectBalanced,
  newPlayer,
  sessionToken,
  snapshot,
  startPaymentServer,
  type TestService,
  SERVER_KEY,
} from './testing/payment-server.js';

/*
 * The server calls on wallets, transactions and withdraw requests: every amount through the ledger,
 * retries moving nothing twice, reverts as new rows, approvals once, and refusals that store nothing.
 */

describe('server wallet, transaction and withdraw-request calls', () => {
  let server: TestService;
  beforeAll(async () => {
    server = await startPaymentServer();
  });
  afterAll(() => server.close());

  const post = (url: string, body: unknown) => call(server, 'POST', url, body);
  const get = (url: string) => call(server, 'GET', url);

  it('opens a wallet, adds and withdraws credits once per idempotency key', async () => {
    const gctId = await newPlayer(server);
    const created = await post(ServerPath.walletCreate, { gctId });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toEqual({ gctId, currency: 't_free', free: 1000, premium: 0 });

    const add = { gctId, amount: 700, idempotencyKey: 'grant-1', cause: 'support' };
    const added = await post(ServerPath.walletAdd, add);
    expect(added.json()).toMatchObject({
      applied: true,
      balance: { free: 1000, premium: 700 },
      txn: { kind: 'adjustment', premium: 700, cause: 'support' },
    });
    const again = await post(ServerPath.walletAdd, add);
    expect(again.json()).toMatchObject({ applied: false, txn: { id: added.json().txn.id } });
    const conflict = await post(ServerPath.walletAdd, { ...add, amount: 701 });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().code).toBe('idempotency_conflict');

    const spent = await post(ServerPath.walletWithdraw, { gctId, amount: 1200, idempotencyKey: 'w-1' });
    expect(spent.json()).toMatchObject({
      balance: { free: 0, premium: 500 },
      txn: { free: -1000, premium: -200 },
    });
    expect(
      (await post(ServerPath.walletWithdraw, { gctId, amount: 1200, idempotencyKey: 'w-1' })).json().applied,
    ).toBe(false);
    const fromPremium = await post(ServerPath.walletWithdraw, {
      gctId,
      amount: 100,
      part: 'premium',
      idempotencyKey: 'w-2',
    });
    expect(fromPremium.json().balance).toEqual({ free: 0, premium: 400 });

    const before = await snapshot(server);
    const overdraw = await post(ServerPath.walletWithdraw, { gctId, amount: 401, idempotencyKey: 'w-3' });
    expect(overdraw.statusCode).toBe(409);
    expect(overdraw.json()).toMatchObject({ code: 'insufficient_credits', error: 'Conflict' });
    const overdrawPart = await post(ServerPath.walletWithdraw, {
      gctId,
      amount: 1,
      part: 'free',
      idempotencyKey: 'w-4',
    });
    expect(overdrawPart.statusCode).toBe(409);
    expect(await snapshot(server)).toEqual(before);

    expect((await get(`${ServerPath.walletBalance}?gctId=${gctId}&currency=t_free`)).json()).toEqual({
      free: 0,
      premium: 400,
    });
    expect((await get(`${ServerPath.walletList}?gctId=${gctId}`)).json()).toEqual({
      items: [{ currency: 't_free', free: 0, premium: 400 }],
    });
    await expectBalanced(server, gctId);
  });

  it('lists transactions newest first, paged, and wallets by balance', async () => {
    const gctId = await newPlayer(server);
    for (const [i, amount] of [100, 200, 300].entries()) {
      await post(ServerPath.walletAdd, { gctId, amount, idempotencyKey: `t-${i}` });
    }
    const all = await get(`${ServerPath.walletTransactions}?gctId=${gctId}`);
    expect(all.json()).toMatchObject({ page: 0, limit: 100 });
    expect(all.json().items.map((t: { amount: number }) => t.amount)).toEqual([300, 200, 100, 1000]);
    const page1 = await get(`${ServerPath.walletTransactions}?gctId=${gctId}&limit=2&page=1`);
    expect(page1.json().items.map((t: { amount: number }) => t.amount)).toEqual([100, 1000]);

    const rich = await newPlayer(server);
    await post(ServerPath.walletAdd, { gctId: rich, amount: 50_000_000, idempotencyKey: 'rich' });
    const filtered = await get(`${ServerPath.walletFilterByBalance}?min=10000000&part=premium`);
    expect(filtered.json()).toEqual({
      items: [{ gctId: rich, currency: 't_free', free: 1000, premium: 50_000_000 }],
      page: 0,
      limit: 100,
    });
    const bad = await get(`${ServerPath.walletFilterByBalance}?min=5&max=1`);
    expect(bad.json()).toMatchObject({ statusCode: 400, message: 'min must not be above max.' });
  });

  it('confirms a transaction once and reverts it with a new row', async () => {
    const gctId = await newPlayer(server);
    const create = { gctId, amount: 250, idempotencyKey: 'txn-1', cause: 'quest-reward' };
    const created = await post(ServerPath.txnCreate, create);
    expect(created.statusCode, created.body).toBe(200);
    const { txn } = created.json();
    expect(txn).toMatchObject({ status: 'pending', amount: 250, ledgerTxnId: null });
    expect(created.json().balance).toEqual({ free: 1000, premium: 0 });
    expect((await post(ServerPath.txnCreate, create)).json().txn.id).toBe(txn.id);
    expect((await post(ServerPath.txnCreate, { ...create, amount: 251 })).statusCode).toBe(409);

    const confirms = await Promise.all([1, 2, 3].map(() => post(ServerPath.txnConfirm, { id: txn.id })));
    for (const confirmed of confirms) expect(confirmed.json().txn.status).toBe('confirmed');
    expect((await get(`${ServerPath.txnGet}?id=${txn.id}`)).json().balance).toEqual({
      free: 1000,
      premium: 250,
    });

    const reverted = await post(ServerPath.txnRevert, { id: txn.id });
    expect(reverted.json()).toMatchObject({
      txn: { status: 'reverted' },
      balance: { free: 1000, premium: 0 },
    });
    expect((await post(ServerPath.txnRevert, { id: txn.id })).json().txn.status).toBe('reverted');
    const rows = (await get(`${ServerPath.walletTransactions}?gctId=${gctId}`)).json().items;
    // the confirmation row stays, marked reversed; the reversal is a row of its own
    expect(
      rows.map((row: { kind: string; amount: number; status: string }) => [row.kind, row.amount, row.status]),
    ).toEqual([
      ['reversal', -250, 'completed'],
      ['adjustment', 250, 'reversed'],
      ['daily_grant', 1000, 'completed'],
    ]);
    await expectBalanced(server, gctId);
  });

  it('keeps a debit pending when it does not fit, cancels a pending one, and lists by status', async () => {
    const gctId = await newPlayer(server);
    const debit = (await post(ServerPath.txnCreate, { gctId, amount: -1500, idempotencyKey: 'big' })).json()
      .txn;
    const before = await snapshot(server);
    const refused = await post(ServerPath.txnConfirm, { id: debit.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('insufficient_credits');
    expect(await snapshot(server)).toEqual(before);
    const canceled = await post(ServerPath.txnRevert, { id: debit.id });
    expect(canceled.json().txn.status).toBe('canceled');
    expect((await post(ServerPath.txnConfirm, { id: debit.id })).json().code).toBe('transaction_canceled');

    const atOnce = await post(ServerPath.txnCreate, {
      gctId,
      amount: -300,
      idempotencyKey: 'small',
      confirm: true,
    });
    expect(atOnce.json()).toMatchObject({ txn: { status: 'confirmed' }, balance: { free: 700, premium: 0 } });
    const confirmed = await get(`${ServerPath.txnList}?gctId=${gctId}&status=confirmed`);
    expect(confirmed.json().items.map((t: { idempotencyKey: string }) => t.idempotencyKey)).toEqual([
      'small',
    ]);
    const paged = await get(`${ServerPath.txnList}?gctId=${gctId}&limit=1&page=1`);
    expect(paged.json()).toMatchObject({ page: 1, limit: 1, items: [{ idempotencyKey: 'big' }] });
  });

  it('approves a withdraw request once through the ledger, and rejects without moving credits', async () => {
    const gctId = await newPlayer(server);
    await post(ServerPath.walletAdd, { gctId, amount: 5000, idempotencyKey: 'bought' });
    const created = await post(ServerPath.withdrawCreate, {
      gctId,
      currency: 't_free',
      amount: 3000,
      note: 'cash out',
    });
    expect(created.statusCode, created.body).toBe(200);
    const { request } = created.json();
    expect(request).toMatchObject({ status: 'pending', amount: 3000, note: 'cash out', decidedAt: null });
    expect(created.json().balance).toEqual({ free: 1000, premium: 5000 });

    const approvals = await Promise.all(
      [1, 2].map(() => post(ServerPath.withdrawApprove, { id: request.id })),
    );
    for (const approval of approvals) expect(approval.json().request.status).toBe('approved');
    expect((await get(`${ServerPath.withdrawGet}?id=${request.id}`)).json()).toMatchObject({
      request: { status: 'approved', ledgerTxnId: expect.any(String) },
      balance: { free: 1000, premium: 2000 },
    });
    expect((await post(ServerPath.withdrawReject, { id: request.id })).statusCode).toBe(409);

    const tooMuch = (await post(ServerPath.withdrawCreate, { gctId, amount: 2500 })).json().request;
    const before = await snapshot(server);
    const refused = await post(ServerPath.withdrawApprove, { id: tooMuch.id });
    expect(refused.statusCode).toBe(409);
    expect(await snapshot(server)).toEqual(before);
    const rejected = await post(ServerPath.withdrawReject, {
      id: tooMuch.id,
      note: 'not enough bought credits',
    });
    expect(rejected.json()).toMatchObject({
      request: { status: 'rejected', decisionNote: 'not enough bought credits' },
      balance: { free: 1000, premium: 2000 },
    });
    expect((await post(ServerPath.withdrawApprove, { id: tooMuch.id })).json().code).toBe(
      'withdraw_rejected',
    );
    await expectBalanced(server, gctId);
  });

  it('starts an order for a player, pays it through the same checkout, and lists orders paged', async () => {
    const gctId = await newPlayer(server);
    const started = await post(ServerPath.walletPurchase, { gctId, currency: 't_free', amount: 1000 });
    expect(started.statusCode, started.body).toBe(200);
    const { orderId, checkoutURL } = started.json();
    expect(checkoutURL).toContain(ApiPath.testCheckout(orderId));
    expect((await get(`${ServerPath.walletPurchaseStatus}?orderId=${orderId}`)).json()).toMatchObject({
      orderId,
      gctId,
      status: 'pending',
      amount: 1000,
    });
    // the player pays with their own session, as their client would
    const paid = await server.app.inject({
      method: 'POST',
      url: ApiPath.testCheckoutPay(orderId),
      headers: { authorization: `Bearer ${await sessionToken(gctId)}` },
    });
    expect(paid.statusCode).toBeLessThan(400);
    expect((await get(`${ServerPath.walletPurchaseStatus}?orderId=${orderId}`)).json().status).toBe('paid');
    expect((await get(`${ServerPath.walletBalance}?gctId=${gctId}`)).json()).toEqual({
      free: 1000,
      premium: 1000,
    });

    const second = (await post(ServerPath.walletPurchase, { gctId, amount: 5000 })).json().orderId;
    const pending = await get(`${ServerPath.walletPurchaseList}?gctId=${gctId}&status=pending`);
    expect(pending.json().items.map((o: { orderId: string }) => o.orderId)).toEqual([second]);
    const page1 = await get(`${ServerPath.walletPurchaseList}?gctId=${gctId}&limit=1&page=1`);
    expect(page1.json()).toMatchObject({ page: 1, limit: 1, items: [{ orderId, status: 'paid' }] });
    const badAmount = await post(ServerPath.walletPurchase, { gctId, amount: 999 });
    expect(badAmount.json()).toMatchObject({
      statusCode: 400,
      message: 'amount must be one of 1000, 5000, 20000.',
    });
    expect((await get(`${ServerPath.walletPurchaseStatus}?orderId=ord_nothing`)).statusCode).toBe(404);
    await expectBalanced(server, gctId);
  });

  it('answers 400 with a message, 404 for unknown ids and players, 401/403 on keys, storing nothing', async () => {
    const gctId = await newPlayer(server);
    await post(ServerPath.walletCreate, { gctId });
    const before = await snapshot(server);
    const bad: [string, unknown, string][] = [
      [ServerPath.walletAdd, { amount: 5, idempotencyKey: 'k' }, 'gctId: gctId is required.'],
      [ServerPath.walletAdd, { gctId, amount: 5 }, 'idempotencyKey: idempotencyKey is required.'],
      [
        ServerPath.walletAdd,
        { gctId, amount: -5, idempotencyKey: 'k' },
        'amount: amount must be a positive whole number.',
      ],
      [
        ServerPath.walletAdd,
        { gctId, amount: 5, idempotencyKey: 'k', currency: 'usd' },
        "currency: currency must be 't_free'.",
      ],
      [
        ServerPath.walletWithdraw,
        { gctId, amount: 5, idempotencyKey: 'k', part: 'gold' },
        "part: part must be 'free' or 'premium'.",
      ],
      [
        ServerPath.txnCreate,
        { gctId, amount: 0, idempotencyKey: 'k' },
        'amount: amount must be a whole number other than 0.',
      ],
      [ServerPath.txnConfirm, {}, 'id: id is required.'],
      [ServerPath.withdrawCreate, { gctId, amount: 1.5 }, 'amount: amount must be a positive whole number.'],
    ];
    for (const [url, body, message] of bad) {
      const response = await post(url, body);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message,
        code: 'invalid_request',
      });
    }
    const unknown: [string, unknown][] = [
      [ServerPath.walletAdd, { gctId: 'nobody', amount: 5, idempotencyKey: 'k' }],
      [ServerPath.txnConfirm, { id: 'no-such-txn' }],
      [ServerPath.txnRevert, { id: 'no-such-txn' }],
      [ServerPath.withdrawApprove, { id: 'no-such-request' }],
      [ServerPath.withdrawCreate, { gctId: 'nobody', amount: 5 }],
    ];
    for (const [url, body] of unknown) {
      const response = await post(url, body);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().code).toBe('not_found');
    }
    expect((await get(`${ServerPath.walletBalance}?gctId=nobody`)).statusCode).toBe(404);
    expect((await get(`${ServerPath.txnGet}?id=nothing`)).statusCode).toBe(404);
    for (const url of Object.values(ServerPath)) {
      const method = /(balance|list|filterByBalance|transactions|status|get)$/.test(url) ? 'GET' : 'POST';
      const missing = await call(server, method, url, method === 'POST' ? { gctId } : undefined, {});
      expect(missing.statusCode, url).toBe(401);
      const wrong = await call(server, method, url, method === 'POST' ? { gctId } : undefined, {
        'x-server-key': SERVER_KEY.toUpperCase(),
      });
      expect(wrong.statusCode, url).toBe(403);
    }
    const notJson = await server.app.inject({
      method: 'POST',
      url: ServerPath.walletAdd,
      headers: { 'x-server-key': SERVER_KEY, 'content-type': 'application/json' },
      payload: '{"gctId":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().code).toBe('invalid_request');
    expect(await snapshot(server)).toEqual(before);
  });
});

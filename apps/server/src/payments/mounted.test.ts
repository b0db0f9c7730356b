import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServerPath, type GuestLoginResponse, type SystemFrame } from '@xtalk/protocol';
import { startPurchase, submitCheckoutForm } from '@xtalk/payments/testing';
import { dbOf, expectBalancesEqualSumOfRows, ledgerOf } from '../testing/credits.js';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';
import { memberLogin } from '../testing/members.js';

/*
 * The payment service as this server mounts it: a purchase and a server's call move the product's own
 * ledger (its daily allowance, its BALANCE frames), sessions are this server's, and a guest is refused.
 */

const SECRET = 'mounted-payments-secret-long-enough';
const SERVER_KEY = 'payment-server-key-for-mounted';
let server: TestServer;

const auth = (login: GuestLoginResponse) => ({ authorization: `Bearer ${login.token}` });

const purchase = (login: GuestLoginResponse, amount: number) =>
  startPurchase(server.app, auth(login), amount);

const submit = (path: string, login: GuestLoginResponse) => submitCheckoutForm(server.app, path, auth(login));

beforeAll(async () => {
  server = await startServer({
    AUTH_SECRET: SECRET,
    PUBLIC_URL: 'http://xtalk.test:8787',
    PAYMENT_SERVER_KEY: SERVER_KEY,
  });
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await expectBalancesEqualSumOfRows(dbOf(server));
});

describe('the payment service mounted on the server', () => {
  it('credits the server ledger through a server call, for players of this server only', async () => {
    const erin = await memberLogin(server, SECRET, 'erin-sub');
    const headers = { 'x-server-key': SERVER_KEY };
    const added = await server.app.inject({
      method: 'POST',
      url: ServerPath.walletAdd,
      headers,
      payload: { gctId: erin.user.userId, amount: 300, idempotencyKey: 'mounted-1' },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(await ledgerOf(server).balance(erin.user.userId)).toEqual({ free: 1000, premium: 300 });
    const unknown = await server.app.inject({
      method: 'GET',
      url: `${ServerPath.walletBalance}?gctId=nobody`,
      headers,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'not_found', message: 'No player nobody.' });
    // the ledger's own refusal, answered in the service's words
    const overdraw = await server.app.inject({
      method: 'POST',
      url: ServerPath.walletWithdraw,
      headers,
      payload: { gctId: erin.user.userId, amount: 301, part: 'premium', idempotencyKey: 'mounted-2' },
    });
    expect(overdraw.statusCode).toBe(409);
    expect(overdraw.json().code).toBe('insufficient_credits');
  });

  it('answers sessions as the rest of the product: a bad token and a guest buyer are refused', async () => {
    const bad = await server.app.inject({
      method: 'GET',
      url: '/api/wallet/balance',
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'Token is invalid.',
      code: 'unauthorized',
    });
    const guest = await guestLogin(server.app);
    const refused = await server.app.inject({
      method: 'POST',
      url: '/api/wallet/purchase',
      headers: auth(guest),
      payload: { currency: 't_free', amount: 1000 },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      message: 'Sign in to buy or withdraw credits.',
      code: 'forbidden',
    });
  });

  it('sends BALANCE to every connection of the buyer when the order is paid, and none to a guest', async () => {
    const dave = await memberLogin(server, SECRET, 'dave-sub');
    const guest = await guestLogin(server.app);
    const { roomId } = await joinRoom(server.app, dave.token, null);
    const first = await TestClient.join(server, dave, roomId);
    const second = await TestClient.join(server, dave, roomId, 'ja');
    const guestClient = await TestClient.join(server, guest, roomId);
    const initial = await first.next<SystemFrame>((f) => f.type === 'system' && f.message === 'BALANCE');
    expect(initial.balance).toEqual({ free: 1000, premium: 0 });

    const { orderId } = await purchase(dave, 20_000);
    const updates = [first, second].map((client) =>
      client.nextNew<SystemFrame>(
        (f) => f.type === 'system' && f.message === 'BALANCE' && f.balance?.premium !== 0,
      ),
    );
    await submit(`/api/payments/test-checkout/${orderId}/pay`, dave);
    for (const frame of await Promise.all(updates))
      expect(frame.balance).toEqual({ free: 1000, premium: 20_000 });
    // a guest gets no balance after READY: its own message, which comes after, is preceded by none
    guestClient.send({ type: 'chat', language: 'en', message: 'hi', room: roomId });
    await guestClient.next((f) => f.type === 'message' && f.username === guest.user.username);
    expect(guestClient.frames.some((f) => f.type === 'system' && f.message === 'BALANCE')).toBe(false);
    for (const client of [first, second, guestClient]) client.close();
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ErrorFrame, GuestLoginResponse, ServerFrame, SystemFrame } from '@xtalk/protocol';
import { dbOf, expectBalancesEqualSumOfRows, ledgerOf } from '../testing/credits.js';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';
import { memberLogin } from '../testing/members.js';
import { GUEST_LIMIT_NOTICE, NO_CREDITS_NOTICE } from './meter.js';

/*
 * Credits through the whole pipeline on real sockets (fake AI provider): the author pays for every engine
 * call, sees BALANCE as it changes, is refunded for failed work, and when they cannot pay their messages are
 * delivered untranslated with one notice to them and one line to the room, and translated once they buy.
 */

const SECRET = 'credits-chat-test-secret-long-enough';
let server: TestServer;

const isBalance = (f: ServerFrame): f is SystemFrame => f.type === 'system' && f.message === 'BALANCE';
const isNotice = (f: ServerFrame): f is ErrorFrame => f.type === 'error' && f.code === 'notice';
const auth = (login: GuestLoginResponse) => ({ authorization: `Bearer ${login.token}` });

async function pair(author: GuestLoginResponse, listener: GuestLoginResponse) {
  const { roomId } = await joinRoom(server.app, author.token, null);
  const a = await TestClient.join(server, author, roomId, 'en');
  const b = await TestClient.join(server, listener, roomId, 'ja');
  return { roomId, a, b };
}

beforeAll(async () => {
  server = await startServer({
    AUTH_SECRET: SECRET,
    CREDITS_DAILY_FREE: '10',
    CREDITS_GUEST_DAILY: '0',
    FAKE_AI_CHUNK_DELAY_MS: '0',
  });
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await expectBalancesEqualSumOfRows(dbOf(server));
});

describe('credits in the chat', () => {
  it('charges the author per engine call at the table price and sends them BALANCE', async () => {
    const alice = await memberLogin(server, SECRET, 'alice-chat');
    const bob = await memberLogin(server, SECRET, 'bob-chat');
    const { roomId, a, b } = await pair(alice, bob);
    expect((await a.next<SystemFrame>(isBalance)).balance).toEqual({ free: 10, premium: 0 });
    // 11 characters: translation 1, hint 1, speech of "[ja] hello there" 1
    const after = a.nextNew<SystemFrame>((f) => isBalance(f) && f.balance?.free === 7);
    a.send({ type: 'chat', language: 'en', message: 'hello there', room: roomId });
    await b.next((f) => f.type === 'translationComplete');
    await after;
    const spends = (await ledgerOf(server).list(alice.user.userId, { limit: 100, page: 0 })).filter(
      (t) => t.kind === 'spend',
    );
    expect(spends.map((t) => [t.cause, t.amount]).sort()).toEqual([
      ['note', -1],
      ['speech', -1],
      ['translation', -1],
    ]);
    // the listener pays nothing
    expect(await ledgerOf(server).balance(bob.user.userId)).toEqual({ free: 10, premium: 0 });
    a.close();
    b.close();
  });

  it('refunds the charge of work that failed', async () => {
    const erin = await memberLogin(server, SECRET, 'erin-chat');
    const bob = await memberLogin(server, SECRET, 'bob2-chat');
    const { roomId, a, b } = await pair(erin, bob);
    a.send({ type: 'chat', language: 'en', message: 'this will !fail', room: roomId });
    const failed = await b.next<ErrorFrame>((f) => isNotice(f) && f.message.startsWith('Translation into'));
    expect(failed.message).toContain('failed');
    const rows = () => ledgerOf(server).list(erin.user.userId, { limit: 100, page: 0 });
    // the refund is a new row reversing the translation's spend; the hint (which succeeded) stays paid
    await vi.waitFor(async () => expect((await rows()).some((t) => t.kind === 'refund')).toBe(true));
    const all = await rows();
    const translation = all.find((t) => t.kind === 'spend' && t.cause === 'translation');
    expect(translation?.status).toBe('reversed');
    expect(all.find((t) => t.kind === 'refund')).toMatchObject({ amount: 1, reference: translation?.id });
    expect(all.find((t) => t.kind === 'spend' && t.cause === 'note')?.status).toBe('completed');
    expect(await ledgerOf(server).balance(erin.user.userId)).toEqual({ free: 9, premium: 0 });
    a.close();
    b.close();
  });

  it('delivers untranslated when the author cannot pay, tells once, and translates after a purchase', async () => {
    const carol = await memberLogin(server, SECRET, 'carol-chat');
    const dan = await memberLogin(server, SECRET, 'dan-chat');
    await ledgerOf(server).spend({ userId: carol.user.userId, key: 'drain', cause: 'test', amount: 10 });
    const { roomId, a, b } = await pair(carol, dan);
    for (const text of ['one', 'two', 'three'])
      a.send({ type: 'chat', language: 'en', message: text, room: roomId });
    await b.next((f) => f.type === 'message' && f.message === 'three');
    expect(b.messages().map((m) => m.translations)).toEqual([{}, {}, {}]);
    const told = await a.next<ErrorFrame>(isNotice);
    expect(told.message).toBe(NO_CREDITS_NOTICE);
    const line = await b.next<ErrorFrame>(isNotice);
    expect(line.message).toContain('has run out of credits');

    const bought = a.nextNew<SystemFrame>((f) => isBalance(f) && f.balance?.premium === 1000);
    const order = await server.app.inject({
      method: 'POST',
      url: '/api/wallet/purchase',
      headers: auth(carol),
      payload: { currency: 't_free', amount: 1000 },
    });
    const { orderId } = order.json();
    await server.app.inject({
      method: 'POST',
      url: `/api/payments/test-checkout/${orderId}/pay`,
      headers: { ...auth(carol), 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    await bought;
    const completed = (text: string) =>
      b.next((f) => f.type === 'translationComplete' && f.fullText === `[ja] ${text}`, 10_000);
    await Promise.all(['one', 'two', 'three'].map(completed));
    // one notice to the author, one line to the room, whatever the number of messages
    expect(a.frames.filter(isNotice)).toHaveLength(1);
    expect(b.frames.filter(isNotice)).toHaveLength(1);
    a.close();
    b.close();
  });

  it('tells a guest who used the guest allowance to sign in, and shows them no balance', async () => {
    const guest = await guestLogin(server.app);
    const dan = await memberLogin(server, SECRET, 'dan2-chat');
    const { roomId, a, b } = await pair(guest, dan);
    a.send({ type: 'chat', language: 'en', message: 'hello', room: roomId });
    const told = await a.next<ErrorFrame>(isNotice);
    expect(told.message).toBe(GUEST_LIMIT_NOTICE);
    expect((await b.next<ErrorFrame>(isNotice)).message).toContain("guest's AI allowance");
    expect(a.frames.some(isBalance)).toBe(false);
    a.close();
    b.close();
  });
});

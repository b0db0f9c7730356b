import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CloseCode,
  FRESH_SIGN_IN_SECONDS,
  signInResponseSchema,
  type GuestLoginResponse,
  type MessageFrame,
  type SignInResponse,
} from '@xtalk/protocol';
import { guestLogin, joinRoom, TestClient, type TestServer } from '../../testing/harness.js';
import { startMailbox, tokenOf, type Mailbox } from '../../testing/mailbox.js';
import { serviceNodes } from '../../testing/service-nodes.js';
import { accountRowsOf, allLedgerRows, storedMessagesOf } from '../../testing/seed/index.js';
import { deleteAccount, say, statusOf } from '../../testing/own-data.js';

/*
 * `npm run test:services`: deleting an account on two nodes over one PostgreSQL and Redis. The deletion
 * made on one node closes the person's sockets on both and refuses their tokens everywhere; the rows go
 * or stay pseudonymised in PostgreSQL as on PGlite; a member on the other node sees "deleted user".
 */

const mailbox: Mailbox = await startMailbox();
// the nodes' clock, moved past a session's freshness by the test of refusals
let offsetMs = 0;
const services = serviceNodes(
  'xtalk_deletion',
  2,
  { PUBLIC_URL: 'http://xtalk.test', MAIL_FROM: 'XTalk <accounts@xtalk.test>', SMTP_URL: mailbox.url },
  { clock: { now: () => Date.now() + offsetMs } },
);
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  [a, b] = services.nodes as [TestServer, TestServer];
});
afterAll(() => mailbox.close());

const post = (node: TestServer, url: string, payload: object) =>
  node.app.inject({ method: 'POST', url, payload });

/** A verified email account signed in on each node. */
let accounts = 0;
async function account(): Promise<{ onA: SignInResponse; onB: SignInResponse }> {
  const email = `deleted-on-two-nodes-${++accounts}@example.com`;
  await post(a, '/api/auth/email/register', { email, password: 'their-own-password' });
  expect((await post(b, '/api/auth/email/verify', { token: tokenOf(await mailbox.next()) })).statusCode).toBe(
    200,
  );
  const signIn = async (node: TestServer) =>
    signInResponseSchema.parse(
      (await post(node, '/api/auth/email/login', { email, password: 'their-own-password' })).json(),
    );
  return { onA: await signIn(a), onB: await signIn(b) };
}

describe('two nodes on PostgreSQL and Redis: deleting an account', () => {
  it('ends the sessions on both nodes, and the others see a deleted user', async () => {
    const { onA, onB } = await account();
    const userId = onA.user.userId;
    const { roomId } = await joinRoom(a.app, onA.token, null);
    const socketAtA = await TestClient.join(a, onA as GuestLoginResponse, roomId);
    const socketAtB = await TestClient.join(b, onB as GuestLoginResponse, roomId);
    const bob = await guestLogin(b.app);
    const bobAtB = await TestClient.join(b, bob, roomId);
    await say(socketAtA, bobAtB, roomId, 'written before leaving');
    await a.app.xtalkCredits.ledger.credit({
      userId,
      key: 'bought',
      cause: 'order',
      amount: 7,
      part: 'premium',
    });

    const answer = await deleteAccount(a, onA.token);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ deleted: true, unspentPaidCredits: 7 });
    expect([await socketAtA.closed(), await socketAtB.closed()]).toEqual([
      CloseCode.SignedOut,
      CloseCode.SignedOut,
    ]);
    for (const token of [onA.token, onB.token]) {
      expect([await statusOf(a, token), await statusOf(b, token)]).toEqual([401, 401]);
    }
    expect((await deleteAccount(b, onB.token)).statusCode).toBe(401);

    expect(await accountRowsOf(a, userId)).toEqual({
      users: 0,
      links: 0,
      emails: 0,
      signInSessions: 0,
      codes: 0,
    });
    const ledger = await allLedgerRows(a);
    expect(ledger.filter((row) => row.user_id === userId)).toEqual([]);
    expect(ledger.filter((row) => row.cause === 'order').map((row) => row.user_id)).toEqual([
      expect.stringMatching(/^erased-/),
    ]);
    expect(await storedMessagesOf(b, roomId)).toEqual([
      expect.objectContaining({
        text: 'written before leaving',
        user_id: null,
        username: '',
        author_deleted: true,
      }),
    ]);

    // Bob, on the other node, was told at once, through the bus
    const told = await bobAtB.next(
      (frame) => frame.type === 'usernameUpdate' && frame.authorDeleted === true,
    );
    const written = bobAtB.messages().find((frame) => frame.message === 'written before leaving')!;
    expect(told).toMatchObject({ username: '', messageIds: [written.id] });
    // and, joining again, sees the message without its author
    bobAtB.close();
    const again = await TestClient.join(b, bob, roomId);
    const message = (again.messages() as MessageFrame[]).find(
      (frame) => frame.message === 'written before leaving',
    );
    expect(message).toMatchObject({ username: '', authorDeleted: true });
    again.close();
  });

  it('refuses a stale session on either node, and changes nothing', async () => {
    const { onA, onB } = await account();
    offsetMs = (FRESH_SIGN_IN_SECONDS + 60) * 1000;
    try {
      for (const [node, session] of [
        [a, onA],
        [b, onB],
      ] as const) {
        const stale = await deleteAccount(node, session.token);
        expect([stale.statusCode, stale.json().code]).toEqual([403, 'fresh_sign_in_required']);
      }
      expect((await accountRowsOf(b, onA.user.userId)).users).toBe(1);
      expect([await statusOf(a, onB.token), await statusOf(b, onA.token)]).toEqual([200, 200]);
    } finally {
      offsetMs = 0;
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CloseCode,
  signInResponseSchema,
  type GuestLoginResponse,
  type SignInResponse,
} from '@xtalk/protocol';
import { joinRoom, TestClient, type TestServer } from '../../testing/harness.js';
import { startMailbox, tokenOf, type Mailbox } from '../../testing/mailbox.js';
import { serviceNodes } from '../../testing/service-nodes.js';

/*
 * `npm run test:services`: sessions end on every node. Two nodes on one PostgreSQL and Redis; a session
 * ended on one node is refused at once on both, and its sockets on the other node close with SignedOut.
 */

// the nodes' SMTP_URL names the mailbox, so it listens before they are made
const mailbox: Mailbox = await startMailbox();
const services = serviceNodes('xtalk_sessions', 2, {
  PUBLIC_URL: 'http://xtalk.test',
  MAIL_FROM: 'XTalk <accounts@xtalk.test>',
  SMTP_URL: mailbox.url,
});
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  [a, b] = services.nodes as [TestServer, TestServer];
});
afterAll(() => mailbox.close());

const post = (node: TestServer, url: string, payload: object, token?: string) =>
  node.app.inject({
    method: 'POST',
    url,
    payload,
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  });
const status = async (node: TestServer, token: string) =>
  (await node.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } }))
    .statusCode;

let accounts = 0;
/** A verified email account signed in once on each node. */
async function account(): Promise<{ email: string; onA: SignInResponse; onB: SignInResponse }> {
  const email = `two-nodes-${++accounts}@example.com`;
  await post(a, '/api/auth/email/register', { email, password: 'first-password' });
  expect((await post(b, '/api/auth/email/verify', { token: tokenOf(await mailbox.next()) })).statusCode).toBe(
    200,
  );
  const signIn = async (node: TestServer) =>
    signInResponseSchema.parse(
      (await post(node, '/api/auth/email/login', { email, password: 'first-password' })).json(),
    );
  return { email, onA: await signIn(a), onB: await signIn(b) };
}

/** A socket of `session` on `node`, in a new room, after READY. */
async function socketOn(node: TestServer, session: SignInResponse): Promise<TestClient> {
  const { roomId } = await joinRoom(node.app, session.token, null);
  return TestClient.join(node, session as GuestLoginResponse, roomId);
}

/** The token is refused on both nodes. */
async function refusedEverywhere(token: string) {
  expect([await status(a, token), await status(b, token)]).toEqual([401, 401]);
}

describe('two nodes on PostgreSQL and Redis: sessions that end', () => {
  it('a sign-out on one node closes that session on the other, and leaves the rest', async () => {
    const { onA, onB } = await account();
    const socketAtB = await socketOn(b, onB);
    const otherAtB = await socketOn(b, onA);
    expect((await post(a, '/api/auth/logout', {}, onB.token)).statusCode).toBe(200);
    expect(await socketAtB.closed()).toBe(CloseCode.SignedOut);
    await refusedEverywhere(onB.token);
    expect([await status(a, onA.token), await status(b, onA.token)]).toEqual([200, 200]);
    otherAtB.close();
  });

  it('sign out everywhere on one node ends the sessions opened on both', async () => {
    const { onA, onB } = await account();
    const socketAtA = await socketOn(a, onA);
    const socketAtB = await socketOn(b, onB);
    expect((await post(b, '/api/auth/logout-all', {}, onB.token)).statusCode).toBe(200);
    expect([await socketAtA.closed(), await socketAtB.closed()]).toEqual([
      CloseCode.SignedOut,
      CloseCode.SignedOut,
    ]);
    await refusedEverywhere(onA.token);
    await refusedEverywhere(onB.token);
  });

  it('a password reset on one node ends the sessions on the other', async () => {
    const { email, onA, onB } = await account();
    const socketAtB = await socketOn(b, onB);
    await post(b, '/api/auth/email/forgot', { email });
    const reset = await post(a, '/api/auth/email/reset', {
      token: tokenOf(await mailbox.next()),
      newPassword: 'second-password',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await socketAtB.closed()).toBe(CloseCode.SignedOut);
    await refusedEverywhere(onA.token);
    await refusedEverywhere(onB.token);
  });
});

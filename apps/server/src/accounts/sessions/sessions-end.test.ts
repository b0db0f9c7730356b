import { describe, expect, it } from 'vitest';
import {
  CloseCode,
  signInResponseSchema,
  signedOutResponseSchema,
  type GuestLoginResponse,
  type SignInResponse,
} from '@xtalk/protocol';
import { guestLogin, joinRoom, roomBarrier, TestClient } from '../../testing/harness.js';
import { tokenOf } from '../../testing/mailbox.js';
import { useEmailServer } from '../testing/mail-accounts.js';

/*
 * Sessions end (one node, PGlite): sign-out ends the session it is called with, "sign out everywhere"
 * all of the player's, a password reset all of them, a password change every other; an ended token is
 * refused at once and its sockets close with SignedOut. Two nodes: sessions-end.services.test.ts.
 */

describe('sessions that end', () => {
  const env = useEmailServer();
  const { post } = env;
  let accounts = 0;

  const status = async (token: string) =>
    (
      await env.server.app.inject({
        method: 'GET',
        url: '/api/me',
        headers: { authorization: `Bearer ${token}` },
      })
    ).statusCode;

  /** A verified email account, signed in `count` times (as on that many devices). */
  async function account(count: number): Promise<{ email: string; sessions: SignInResponse[] }> {
    const email = `sessions-${++accounts}@example.com`;
    await env.registerAndVerify(email, 'first-password');
    const sessions: SignInResponse[] = [];
    for (let index = 0; index < count; index++) {
      const answer = await env.login(email, 'first-password');
      expect(answer.statusCode, answer.body).toBe(200);
      sessions.push(signInResponseSchema.parse(answer.json()));
    }
    return { email, sessions };
  }

  /** A socket of `session` in `roomId` (a new room when null), after READY. */
  async function inRoom(session: SignInResponse | GuestLoginResponse, roomId: string | null) {
    const room = roomId ?? (await joinRoom(env.server.app, session.token, null)).roomId;
    const socket = await TestClient.join(env.server, session as GuestLoginResponse, room);
    return { socket, room };
  }

  it('sign-out ends the session it is called with, and only that one', async () => {
    const { sessions } = await account(2);
    const [first, second] = sessions as [SignInResponse, SignInResponse];
    const { socket, room } = await inRoom(first, null);
    const { socket: other } = await inRoom(second, room);
    const answer = await post('/api/auth/logout', {}, first.token);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(signedOutResponseSchema.parse(answer.json()).ok).toBe(true);
    expect(await socket.closed()).toBe(CloseCode.SignedOut);
    expect(await status(first.token)).toBe(401);
    expect(await status(second.token)).toBe(200);
    // the other session's socket is still in the room: it hears its own message
    await roomBarrier(other, room, [other]);
    // an ended token ends nothing more, and signs no socket in
    expect((await post('/api/auth/logout', {}, first.token)).statusCode).toBe(401);
    await expect(joinRoom(env.server.app, first.token, room)).rejects.toThrow(/401/);
    other.close();
  });

  it('sign out everywhere ends every session of the player, sockets included', async () => {
    const { sessions } = await account(3);
    const { socket, room } = await inRoom(sessions[0]!, null);
    const { socket: second } = await inRoom(sessions[1]!, room);
    const stranger = await guestLogin(env.server.app);
    const { socket: bystander } = await inRoom(stranger, room);
    const answer = await post('/api/auth/logout-all', {}, sessions[2]!.token);
    expect(answer.statusCode, answer.body).toBe(200);
    expect([await socket.closed(), await second.closed()]).toEqual([
      CloseCode.SignedOut,
      CloseCode.SignedOut,
    ]);
    for (const session of sessions) expect(await status(session.token)).toBe(401);
    // nobody else was signed out
    expect(await status(stranger.token)).toBe(200);
    await roomBarrier(bystander, room, [bystander]);
    bystander.close();
    // signing in again opens a new session
    const again = await env.login(`sessions-${accounts}@example.com`, 'first-password');
    expect(await status(signInResponseSchema.parse(again.json()).token)).toBe(200);
  });

  it('sign-out needs a live token of the caller', async () => {
    for (const path of ['/api/auth/logout', '/api/auth/logout-all']) {
      const anonymous = await post(path, {});
      expect([anonymous.statusCode, anonymous.json().code]).toEqual([401, 'unauthorized']);
      expect((await post(path, {}, 'forged.token.here')).statusCode).toBe(401);
    }
  });

  it('a password change ends every other session; the caller goes on', async () => {
    const { sessions } = await account(2);
    const [caller, other] = sessions as [SignInResponse, SignInResponse];
    const { socket: callerSocket, room } = await inRoom(caller, null);
    const { socket: otherSocket } = await inRoom(other, room);
    const changed = await env.server.app.inject({
      method: 'PUT',
      url: '/api/player/password',
      remoteAddress: env.ip,
      headers: { authorization: `Bearer ${caller.token}` },
      payload: { password: 'first-password', newPassword: 'second-password' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await otherSocket.closed()).toBe(CloseCode.SignedOut);
    expect(await status(other.token)).toBe(401);
    expect(await status(caller.token)).toBe(200);
    await roomBarrier(callerSocket, room, [callerSocket]);
    callerSocket.close();
  });

  it('a password reset ends every session of the player', async () => {
    const { email, sessions } = await account(1);
    const { socket } = await inRoom(sessions[0]!, null);
    await post('/api/auth/email/forgot', { email });
    const reset = await post('/api/auth/email/reset', {
      token: tokenOf(await env.mailbox.next()),
      newPassword: 'second-password',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await socket.closed()).toBe(CloseCode.SignedOut);
    expect(await status(sessions[0]!.token)).toBe(401);
  });

  it('a guest carried into an account: the guest session ends, its sockets too', async () => {
    const { email } = await account(0);
    const guest = await guestLogin(env.server.app);
    const { socket } = await inRoom(guest, null);
    const signedIn = await env.login(email, 'first-password', guest.token);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(await socket.closed()).toBe(CloseCode.SignedOut);
    expect(await status(guest.token)).toBe(401);
    expect(await status(signInResponseSchema.parse(signedIn.json()).token)).toBe(200);
  });
});

import { describe, expect, it } from 'vitest';
import {
  CloseCode,
  deletePlayerResponseSchema,
  FRESH_SIGN_IN_SECONDS,
  PROTOCOL_VERSION,
  type MessageFrame,
  type SummaryCompleteFrame,
  type UsernameUpdateFrame,
} from '@xtalk/protocol';
import { guestLogin, joinRoom, TestClient } from '../../testing/harness.js';
import {
  accountRowsOf,
  allLedgerRows,
  emailTokensFor,
  orderOwners,
  roomLogOf,
  storedMessagesOf,
  userIdOf,
} from '../../testing/seed/index.js';
import { useEmailServer } from '../../testing/mail-accounts.js';
import { deleteAccount, emailAccount, inRoom, orderCredits, say, statusOf } from '../../testing/own-data.js';

/*
 * Deleting an account end to end (one node, PGlite): what goes, what stays nameless or pseudonymised,
 * what the others in the room see, and the refusals. Two nodes on PostgreSQL: delete-account.services.test.ts.
 */

describe('deleting my account', () => {
  const env = useEmailServer();

  it('takes the person away and leaves their messages nameless for the others', async () => {
    const alice = await emailAccount(env, 'alice');
    const aliceId = await userIdOf(env.server, alice.session.user.username);
    const bob = await guestLogin(env.server.app);
    const { socket: aliceSocket, room } = await inRoom(env.server, alice.session, null);
    const { socket: bobSocket } = await inRoom(env.server, bob, room);
    await say(aliceSocket, bobSocket, room, 'hello from alice');
    await say(bobSocket, aliceSocket, room, 'hello from bob');
    const { ledger } = env.server.app.xtalkCredits;
    await ledger.credit({ userId: aliceId, key: 'bought-1', cause: 'order', amount: 40, part: 'premium' });
    const orderId = await orderCredits(env.server, alice.session.token);
    const rowsBefore = (await allLedgerRows(env.server)).filter((row) => row.user_id === aliceId);

    const answer = await deleteAccount(env.server, alice.session.token);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(deletePlayerResponseSchema.parse(answer.json())).toEqual({
      deleted: true,
      unspentPaidCredits: 40,
    });

    // the socket closes as signed out, and the token is refused from now on
    expect(await aliceSocket.closed()).toBe(CloseCode.SignedOut);
    expect(await statusOf(env.server, alice.session.token)).toBe(401);
    expect((await deleteAccount(env.server, alice.session.token)).statusCode).toBe(401);
    await expect(joinRoom(env.server.app, alice.session.token, room)).rejects.toThrow(/401/);
    expect((await env.login(alice.email, alice.password)).statusCode).toBe(401);

    // what went
    expect(await accountRowsOf(env.server, aliceId)).toEqual({
      users: 0,
      links: 0,
      emails: 0,
      signInSessions: 0,
      codes: 0,
    });
    expect(await emailTokensFor(env.server, alice.email)).toBe(0);
    // what stays: the ledger's rows, under a pseudonym that is not the person's id
    const rowsAfter = await allLedgerRows(env.server);
    expect(rowsAfter.filter((row) => row.user_id === aliceId)).toEqual([]);
    const kept = rowsAfter.filter((row) => rowsBefore.some((before) => before.id === row.id));
    expect(kept.map((row) => row.id)).toEqual(rowsBefore.map((row) => row.id));
    expect(new Set(kept.map((row) => row.user_id)).size).toBe(1);
    expect(kept[0]!.user_id).toMatch(/^erased-/);
    // the order too, under the same pseudonym
    expect((await orderOwners(env.server)).find((row) => row.id === orderId)?.user_id).toBe(kept[0]!.user_id);
    // the messages: Alice's nameless, Bob's as they were
    expect(await storedMessagesOf(env.server, room)).toEqual([
      expect.objectContaining({
        text: 'hello from alice',
        user_id: null,
        username: '',
        author_deleted: true,
      }),
      expect.objectContaining({ text: 'hello from bob', username: bob.user.username, author_deleted: false }),
    ]);

    // what the others see: a new socket of Bob's gets the message with no name and the deleted mark
    bobSocket.close();
    const again = await TestClient.join(env.server, bob, room);
    const seen = again.messages() as MessageFrame[];
    const hers = seen.find((frame) => frame.message === 'hello from alice')!;
    expect(hers).toMatchObject({ username: '', authorDeleted: true });
    expect(hers.displayUsername).toBeUndefined();
    expect(hers.clientId).toBeUndefined();
    expect(seen.find((frame) => frame.message === 'hello from bob')!.authorDeleted).toBeUndefined();
    again.close();
  });

  it('tells the others in the room at once, in a frame an older client ignores', async () => {
    const alice = await emailAccount(env, 'live');
    const bob = await guestLogin(env.server.app);
    const carol = await guestLogin(env.server.app);
    const { socket: aliceSocket, room } = await inRoom(env.server, alice.session, null);
    const { socket: bobSocket } = await inRoom(env.server, bob, room);
    // an older client: the same frame reaches it, with no name, which it has always left alone
    const carolSocket = await TestClient.join(env.server, carol, room, 'en', { protocolVersion: 4 });
    await say(aliceSocket, bobSocket, room, 'alice, live');
    await say(bobSocket, aliceSocket, room, 'bob, live');
    const hers = await bobSocket.next<MessageFrame>(
      (frame) => frame.type === 'message' && frame.message === 'alice, live',
    );
    await carolSocket.next((frame) => frame.type === 'message' && frame.message === 'bob, live');

    expect((await deleteAccount(env.server, alice.session.token)).statusCode).toBe(200);
    const told = { type: 'usernameUpdate', username: '', displayUsername: '', oldDisplayUsername: '' };
    const toBob = await bobSocket.next<UsernameUpdateFrame>((frame) => frame.type === 'usernameUpdate');
    expect(toBob).toMatchObject({ ...told, authorDeleted: true, messageIds: [hers.id] });
    expect(await carolSocket.next((frame) => frame.type === 'usernameUpdate')).toMatchObject(told);
    // a client that was away is told on resume: the frame is in the room log at its offset
    const log = (await roomLogOf(env.server, room)) as { authorDeleted?: true }[];
    const logged = log.find((frame) => frame.authorDeleted);
    expect(logged).toMatchObject({ messageIds: [hers.id] });
    expect(toBob.offset).toBeGreaterThan(hers.offset!);
    bobSocket.close();
    carolSocket.close();
  });

  it('rewrites the room log so no earlier name of the person is left in it', async () => {
    const alice = await emailAccount(env, 'renamed');
    const { socket, room } = await inRoom(env.server, alice.session, null);
    await say(socket, socket, room, 'before the rename');
    const renamed = await env.server.app.inject({
      method: 'PATCH',
      url: '/users',
      headers: { authorization: `Bearer ${alice.session.token}` },
      payload: { name: 'AliceRenamed' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    socket.send({ type: 'updateUsername', username: 'AliceRenamed', displayUsername: 'AliceRenamed' });
    await socket.next((frame) => frame.type === 'usernameUpdate');
    expect(JSON.stringify(await roomLogOf(env.server, room))).toContain('AliceRenamed');
    expect((await deleteAccount(env.server, alice.session.token)).statusCode).toBe(200);
    const log = JSON.stringify(await roomLogOf(env.server, room));
    expect(log).not.toContain('AliceRenamed');
    expect(log).not.toContain(alice.session.user.username);
  });

  it('leaves no name in a summary made afterwards', async () => {
    const alice = await emailAccount(env, 'summarised');
    const bob = await guestLogin(env.server.app);
    const { socket, room } = await inRoom(env.server, alice.session, null);
    const listener = await TestClient.join(env.server, bob, room, 'en', {
      protocolVersion: PROTOCOL_VERSION,
    });
    for (const text of ['plan one', 'plan two', 'plan three']) await say(socket, listener, room, text);
    for (const text of ['fine one', 'fine two']) await say(listener, listener, room, text);
    expect((await deleteAccount(env.server, alice.session.token)).statusCode).toBe(200);
    listener.send({ type: 'summarize', room, language: 'en' });
    const summary = await listener.next<SummaryCompleteFrame>(
      (frame) => frame.type === 'summaryComplete',
      10_000,
    );
    expect(summary.text).toContain('deleted user: plan one');
    expect(summary.text).not.toContain(alice.session.user.username);
    listener.close();
  });

  it('refuses without a fresh sign-in, and the password stands in for one', async () => {
    const alice = await emailAccount(env, 'stale');
    env.offsetMs = (FRESH_SIGN_IN_SECONDS + 60) * 1000;
    const stale = await deleteAccount(env.server, alice.session.token);
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ code: 'fresh_sign_in_required' });
    expect(stale.json().message).toMatch(/sign in again/i);
    const wrong = await deleteAccount(env.server, alice.session.token, { password: 'not-their-password' });
    expect([wrong.statusCode, wrong.json().code]).toEqual([403, 'wrong_password']);
    const bad = await deleteAccount(env.server, alice.session.token, { password: '' });
    expect(bad.statusCode).toBe(400);
    // nothing changed: the account is still there and signed in
    expect(await statusOf(env.server, alice.session.token)).toBe(200);
    const withPassword = await deleteAccount(env.server, alice.session.token, { password: alice.password });
    expect(withPassword.statusCode, withPassword.body).toBe(200);
    expect(await statusOf(env.server, alice.session.token)).toBe(401);
  });

  it('refuses guests, strangers and ended sessions, and deletes only the caller', async () => {
    const alice = await emailAccount(env, 'target');
    const mallory = await emailAccount(env, 'mallory');
    const guest = await guestLogin(env.server.app);
    const asGuest = await deleteAccount(env.server, guest.token);
    expect([asGuest.statusCode, asGuest.json().code]).toEqual([403, 'login_required']);
    expect((await deleteAccount(env.server, undefined)).statusCode).toBe(401);
    expect((await deleteAccount(env.server, 'forged.token.here')).statusCode).toBe(401);
    // an ended session deletes nothing
    expect((await env.post('/api/auth/logout', {}, mallory.session.token)).statusCode).toBe(200);
    expect((await deleteAccount(env.server, mallory.session.token)).statusCode).toBe(401);
    // a player's token cannot name another player: the by-id call is the administrator's
    const byId = (headers: Record<string, string>) =>
      env.server.app.inject({ method: 'DELETE', url: `/api/player/${alice.session.user.userId}`, headers });
    const strangerById = await byId({ authorization: `Bearer ${guest.token}` });
    expect(strangerById.statusCode).toBe(403);
    expect((await byId({ 'x-admin-key': 'not-the-admin-key-at-all' })).statusCode).toBe(401);
    expect(await statusOf(env.server, alice.session.token)).toBe(200);
    // a body that is not the schema's changes nothing
    expect((await deleteAccount(env.server, alice.session.token, { confirm: 'yes' })).statusCode).toBe(400);
    expect(await statusOf(env.server, alice.session.token)).toBe(200);
  });

  it('an administrator deletes a player by the same rules', async () => {
    const alice = await emailAccount(env, 'by-admin');
    const aliceId = alice.session.user.userId;
    const { socket, room } = await inRoom(env.server, alice.session, null);
    const bob = await guestLogin(env.server.app);
    const { socket: bobSocket } = await inRoom(env.server, bob, room);
    await say(socket, bobSocket, room, 'said before the admin came');
    const answer = await env.server.app.inject({
      method: 'DELETE',
      url: `/api/player/${aliceId}`,
      headers: { 'x-admin-key': 'admin-key-for-the-email-tests' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await socket.closed()).toBe(CloseCode.SignedOut);
    expect(await statusOf(env.server, alice.session.token)).toBe(401);
    expect((await accountRowsOf(env.server, aliceId)).users).toBe(0);
    expect(await storedMessagesOf(env.server, room)).toEqual([
      expect.objectContaining({ user_id: null, username: '', author_deleted: true }),
    ]);
    const twice = await env.server.app.inject({
      method: 'DELETE',
      url: `/api/player/${aliceId}`,
      headers: { 'x-admin-key': 'admin-key-for-the-email-tests' },
    });
    expect(twice.statusCode).toBe(404);
    bobSocket.close();
  });
});

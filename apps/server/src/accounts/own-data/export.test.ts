import { describe, expect, it } from 'vitest';
import { guestLogin } from '../../testing/harness.js';
import { useEmailServer } from '../../testing/mail-accounts.js';
import { emailAccount, exportOf, inRoom, orderCredits, say } from '../../testing/own-data.js';

/*
 * The export (GET /api/player/export): a person with messages, sign-ins and a ledger gets all of it, in
 * JSON and in Markdown, with no secret and nothing of anyone else; only their own, never a guest's or a
 * stranger's, and a few a minute.
 */

describe('exporting my data', () => {
  const env = useEmailServer();

  /** Alice with a room shared with Bob, where both wrote, Alice's message translated, and a ledger. */
  async function aliceWithData() {
    const alice = await emailAccount(env, 'export');
    const bob = await guestLogin(env.server.app);
    const { socket, room } = await inRoom(env.server, alice.session, null);
    const { socket: bobSocket } = await inRoom(env.server, bob, room);
    // Bob listens in Japanese: Alice's message is translated for him
    bobSocket.send({ type: 'setLanguage', language: 'ja', room });
    await say(socket, bobSocket, room, 'alice writes this');
    await bobSocket.next((frame) => frame.type === 'translationComplete', 10_000);
    await say(bobSocket, socket, room, 'bob secret words');
    const userId = alice.session.user.userId;
    await env.server.app.xtalkCredits.ledger.credit({
      userId,
      key: 'bought-for-export',
      cause: 'order',
      reference: 'order-for-export',
      amount: 25,
      part: 'premium',
    });
    await orderCredits(env.server, alice.session.token);
    socket.close();
    bobSocket.close();
    return { alice, bob, room, userId };
  }

  it('holds the profile, sign-ins, rooms, messages with translations and the ledger, and no secret', async () => {
    const { alice, bob, room, userId } = await aliceWithData();
    const answer = await exportOf(env.server, alice.session.token);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['content-disposition']).toMatch(/attachment; filename="xtalk-export-.*\.json"/);
    const data = answer.json();
    expect(data.profile).toMatchObject({ id: userId, username: alice.session.user.username });
    expect(data.signIns).toEqual([expect.objectContaining({ provider: 'email', subject: alice.email })]);
    expect(data.emails).toEqual([expect.objectContaining({ email: alice.email })]);
    expect(data.rooms).toEqual([expect.objectContaining({ roomId: room })]);
    expect(data.messages).toEqual([
      expect.objectContaining({
        roomId: room,
        text: 'alice writes this',
        translations: { ja: '[ja] alice writes this' },
      }),
    ]);
    expect(data.ledger).toContainEqual(
      expect.objectContaining({ premium: 25, cause: 'order', reference: 'order-for-export' }),
    );
    expect(data.orders).toEqual([expect.objectContaining({ productId: 'credits_1000', amount: 1000 })]);
    // nothing of anyone else, and no secret
    expect(answer.body).not.toContain('bob secret words');
    expect(answer.body).not.toContain(bob.user.username);
    expect(answer.body).not.toContain(alice.password);
    expect(answer.body).not.toMatch(/scrypt\$/);
    expect(answer.body).not.toContain(alice.session.token);
    expect(answer.body).not.toMatch(/password|session/i);
  });

  it('has a readable Markdown twin, by query or by Accept', async () => {
    const { alice } = await aliceWithData();
    for (const [query, accept] of [
      ['?format=md', undefined],
      ['', 'text/markdown'],
    ] as const) {
      const answer = await exportOf(env.server, alice.session.token, query, accept);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/markdown/);
      expect(answer.body).toMatch(/^# What XTalk holds about /);
      for (const heading of ['Profile', 'Sign-in methods', 'Rooms', 'Messages', 'Credits ledger', 'Orders']) {
        expect(answer.body).toContain(`\n## ${heading}\n`);
      }
      expect(answer.body).toContain('alice writes this');
      expect(answer.body).toContain('\\[ja\\] alice writes this');
      expect(answer.body).not.toContain('bob secret words');
    }
    const bad = await exportOf(env.server, alice.session.token, '?format=pdf');
    expect(bad.statusCode).toBe(400);
  });

  it('answers only its own player, never a guest, a stranger or an ended session', async () => {
    const { alice } = await aliceWithData();
    const mallory = await emailAccount(env, 'mallory');
    const guest = await guestLogin(env.server.app);
    const asGuest = await exportOf(env.server, guest.token);
    expect([asGuest.statusCode, asGuest.json().code]).toEqual([403, 'login_required']);
    expect((await exportOf(env.server, undefined)).statusCode).toBe(401);
    // another player's token exports that player, and nothing of Alice's
    const theirs = await exportOf(env.server, mallory.session.token);
    expect(theirs.json().profile.id).toBe(mallory.session.user.userId);
    expect(theirs.body).not.toContain('alice writes this');
    expect(theirs.body).not.toContain(alice.email);
    expect((await env.post('/api/auth/logout', {}, mallory.session.token)).statusCode).toBe(200);
    expect((await exportOf(env.server, mallory.session.token)).statusCode).toBe(401);
  });

  it('is limited to a few a minute per person', async () => {
    const alice = await emailAccount(env, 'limited');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      statuses.push((await exportOf(env.server, alice.session.token)).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

import { describe, expect, it } from 'vitest';
import { signInResponseSchema } from '@xtalk/protocol';
import { guestLogin } from '../../../testing/harness.js';
import { tokenOf } from '../../../testing/mailbox.js';
import { useEmailServer } from '../../testing/mail-accounts.js';

/*
 * An address belongs to whoever proves it (the "pre-hijacked account" class): someone who registers an
 * address that is not theirs, signed in or as a guest, gets nothing when its owner registers, confirms
 * and resets a password: the owner lands in their own player, the first requester's player never holds
 * the address, and a verified address is never moved by registering it again.
 */

describe('email claims', () => {
  const env = useEmailServer();
  const { post, login } = env;

  const me = (token: string) =>
    env.server.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
  const linksOf = async (token: string) =>
    (
      await env.server.app.inject({
        method: 'GET',
        url: '/api/player/links',
        headers: { authorization: `Bearer ${token}` },
      })
    ).json().links as { provider: string; subject: string }[];

  /** The attacker's claim first, then the owner's: returns the link mailed for the attacker's claim. */
  async function preClaimThenOwnerRegisters(victim: string, attackerToken: string): Promise<string> {
    const claimed = await post(
      '/api/auth/email/register',
      { email: victim, password: 'attacker-pass' },
      attackerToken,
    );
    expect(claimed.statusCode, claimed.body).toBe(202);
    // the mail goes to the address, which the attacker cannot read; the test keeps its link to try it
    const attackerLink = tokenOf(await env.mailbox.next());
    // a signed-in attacker cannot tell it was pending either: the answer is the same as for anyone
    const owner = await post('/api/auth/email/register', { email: victim, password: 'owner-password' });
    expect(owner.json()).toEqual(claimed.json());
    const ownerLink = tokenOf(await env.mailbox.next());
    const confirmed = await post('/api/auth/email/verify', { token: ownerLink });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return attackerLink;
  }

  /** The owner, who never chose the first password, resets it and signs in; returns their session. */
  async function ownerResetsAndSignsIn(victim: string) {
    await post('/api/auth/email/forgot', { email: victim });
    const reset = await post('/api/auth/email/reset', {
      token: tokenOf(await env.mailbox.next()),
      newPassword: 'owner-new-password',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const signedIn = await login(victim, 'owner-new-password');
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    return signInResponseSchema.parse(signedIn.json());
  }

  async function expectAttackerShutOut(victim: string, attacker: { token: string; userId: string }) {
    expect((await login(victim, 'attacker-pass')).statusCode).toBe(401);
    expect((await linksOf(attacker.token)).map((link) => link.subject)).not.toContain(victim);
    // registering the verified address again moves nothing: its owner hears someone tried (an hour on,
    // past the address's mail limit)
    env.offsetMs = 2 * 3600_000;
    const again = await post(
      '/api/auth/email/register',
      { email: victim, password: 'attacker-pass' },
      attacker.token,
    );
    expect(again.statusCode).toBe(202);
    const notice = await env.mailbox.next();
    expect(notice).toMatchObject({ to: victim, subject: 'Your XTalk account' });
    expect(notice.text).not.toContain('token=');
    expect((await login(victim, 'attacker-pass')).statusCode).toBe(401);
    expect((await linksOf(attacker.token)).map((link) => link.subject)).not.toContain(victim);
  }

  it('a signed-in player who pre-claims an address gets nothing of it', async () => {
    await env.registerAndVerify('attacker@example.com', 'attacker-own-pass');
    const attacker = signInResponseSchema.parse(
      (await login('attacker@example.com', 'attacker-own-pass')).json(),
    );
    const victim = 'victim-one@example.com';
    const attackerLink = await preClaimThenOwnerRegisters(victim, attacker.token);

    // the owner's password is the one that signs in, into a player that is not the attacker's
    const first = await login(victim, 'owner-password');
    expect(first.statusCode, first.body).toBe(200);
    const ownerId = signInResponseSchema.parse(first.json()).user.userId;
    expect(ownerId).not.toBe(attacker.user.userId);
    // the link mailed for the replaced claim is void
    const stale = await post('/api/auth/email/verify', { token: attackerLink });
    expect([stale.statusCode, stale.json().code]).toEqual([400, 'invalid_link']);

    const owner = await ownerResetsAndSignsIn(victim);
    expect(owner.user.userId).toBe(ownerId);
    expect(await linksOf(owner.token)).toEqual([{ provider: 'email', subject: victim }]);
    await expectAttackerShutOut(victim, { token: attacker.token, userId: attacker.user.userId });
    // the attacker's own sign-in is untouched
    expect((await me(attacker.token)).statusCode).toBe(200);
  });

  it('a guest who pre-claims an address gets nothing of it', async () => {
    const guest = await guestLogin(env.server.app);
    const victim = 'victim-two@example.com';
    const attackerLink = await preClaimThenOwnerRegisters(victim, guest.token);
    const stale = await post('/api/auth/email/verify', { token: attackerLink });
    expect([stale.statusCode, stale.json().code]).toEqual([400, 'invalid_link']);

    const owner = await ownerResetsAndSignsIn(victim);
    expect(owner.user.userId).not.toBe(guest.user.userId);
    expect(owner.user.username).not.toBe(guest.user.username);
    // the guest is still a guest, holding no email
    expect((await me(guest.token)).json()).toMatchObject({ userId: guest.user.userId, provider: 'guest' });
    await expectAttackerShutOut(victim, { token: guest.token, userId: guest.user.userId });
  });

  it('opening a link binds the claim of the request that mailed it, and voids the others', async () => {
    const guest = await guestLogin(env.server.app);
    const address = 'twice@example.com';
    await post('/api/auth/email/register', { email: address, password: 'first-password' });
    const firstLink = tokenOf(await env.mailbox.next());
    // the second request, a guest's, replaces the first: its password, its player
    await post('/api/auth/email/register', { email: address, password: 'second-password' }, guest.token);
    const secondLink = tokenOf(await env.mailbox.next());
    expect((await post('/api/auth/email/verify', { token: firstLink })).statusCode).toBe(400);
    expect((await post('/api/auth/email/verify', { token: secondLink })).statusCode).toBe(200);
    expect((await login(address, 'first-password')).statusCode).toBe(401);
    const signedIn = signInResponseSchema.parse((await login(address, 'second-password')).json());
    expect(signedIn.user.userId).toBe(guest.user.userId);
  });
});

import { describe, expect, it } from 'vitest';
import { mailSentResponseSchema, signInResponseSchema } from '@xtalk/protocol';
import { guestLogin } from '../../../testing/harness.js';
import { tokenOf } from '../../../testing/mailbox.js';
import { useEmailServer } from '../../testing/mail-accounts.js';

/*
 * Email accounts against a real SMTP server started here: register, verify, login, forgot, reset,
 * resend, password change; tokens single-use and expiring; answers that never tell whether an address
 * is registered; wrong passwords and mails counted per account and per IP.
 */

describe('email accounts', () => {
  const env = useEmailServer();
  const { post, registerAndVerify, login } = env;

  it('tells the web app that account mails go out', async () => {
    const config = await env.server.app.inject({ method: 'GET', url: '/api/auth/config' });
    expect(config.json()).toMatchObject({ google: false, mail: true });
  });

  it('registers, mails a verification link, refuses login until verified, then signs in', async () => {
    const registered = await post('/api/auth/email/register', {
      email: ' Ada@Example.com ',
      password: 'correct horse',
    });
    expect(registered.statusCode, registered.body).toBe(202);
    expect(mailSentResponseSchema.parse(registered.json()).ok).toBe(true);
    const mail = await env.mailbox.next();
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toMatch(/Confirm/);
    expect(mail.text).toContain('http://xtalk.test/verify-email?token=');

    const early = await login('ada@example.com', 'correct horse');
    expect(early.statusCode).toBe(403);
    expect(early.json().message).toMatch(/Confirm your email/);
    expect(early.json().code).toBe('email_not_verified');

    const verify = await post('/api/auth/email/verify', { token: tokenOf(mail) });
    expect(verify.statusCode, verify.body).toBe(200);
    // the link works once
    const again = await post('/api/auth/email/verify', { token: tokenOf(mail) });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toMatch(/invalid, expired or already used/);

    const signedIn = await login('ADA@example.com', 'correct horse');
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const session = signInResponseSchema.parse(signedIn.json());
    expect(session.user.provider).toBe('ggl');
    // native clients: the token endpoint takes the same email and password
    const native = await post('/api/auth/token', {
      app_id: 'xtalk',
      platform: 'ios',
      identity_provider: 'email',
      platform_player_id: 'ada@example.com',
      payload: 'correct horse',
      data: {},
    });
    expect(native.statusCode, native.body).toBe(200);
    expect(signInResponseSchema.parse(native.json()).user.userId).toBe(session.user.userId);
    const nativeWrong = await post('/api/auth/token', {
      app_id: 'xtalk',
      platform: 'ios',
      identity_provider: 'email',
      platform_player_id: 'ada@example.com',
      payload: 'wrong horse',
    });
    expect(nativeWrong.statusCode).toBe(401);
    const links = await env.server.app.inject({
      method: 'GET',
      url: '/api/player/links',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(links.json()).toEqual({ links: [{ provider: 'email', subject: 'ada@example.com' }] });
    const player = await env.server.app.inject({
      method: 'GET',
      url: `/api/player/${session.user.userId}`,
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(player.body).not.toMatch(/scrypt|password/i);
    // an admin looking the player up sees that there is an email, not the address
    const admin = await env.server.app.inject({
      method: 'GET',
      url: `/api/player/${session.user.userId}`,
      headers: { 'x-admin-key': 'admin-key-for-the-email-tests' },
    });
    expect(admin.json().links).toEqual([{ provider: 'email', subject: 'a***@example.com' }]);
  });

  it('answers the same whether or not an address is registered, and mails only its owner', async () => {
    await registerAndVerify('known@example.com', 'password-one');
    const known = await post('/api/auth/email/register', {
      email: 'known@example.com',
      password: 'other-pass',
    });
    const unknown = await post('/api/auth/email/register', {
      email: 'new@example.com',
      password: 'other-pass',
    });
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.json()).toEqual(unknown.json());
    // the owner hears someone tried; the new address gets its confirmation
    const mails = [await env.mailbox.next(), await env.mailbox.next()].sort((a, b) =>
      a.to.localeCompare(b.to),
    );
    expect(mails[0]).toMatchObject({ to: 'known@example.com', subject: 'Your XTalk account' });
    expect(mails[0]!.text).not.toContain('token=');
    expect(mails[1]).toMatchObject({ to: 'new@example.com' });

    const forgotKnown = await post('/api/auth/email/forgot', { email: 'known@example.com' });
    const forgotUnknown = await post('/api/auth/email/forgot', { email: 'nobody@example.com' });
    expect(forgotKnown.json()).toEqual(forgotUnknown.json());
    expect(forgotKnown.statusCode).toBe(forgotUnknown.statusCode);
    // only the registered address got a mail: the next mail is the reset of known@, then a later resend
    const resend = await post('/api/auth/email/resend', { email: 'new@example.com' });
    expect(resend.statusCode).toBe(202);
    const next = await env.mailbox.next();
    expect(next.to).toBe('known@example.com');
    expect(next.subject).toMatch(/Reset/);
    expect((await env.mailbox.next()).to).toBe('new@example.com');

    const wrongUser = await login('nobody@example.com', 'password-one');
    const wrongPassword = await login('known@example.com', 'password-two');
    expect(wrongUser.statusCode).toBe(401);
    expect(wrongUser.json()).toEqual(wrongPassword.json());
  });

  it('resets a forgotten password with a single-use link; the old password stops working', async () => {
    await registerAndVerify('reset@example.com', 'first-password');
    await post('/api/auth/email/forgot', { email: 'reset@example.com' });
    const mail = await env.mailbox.next();
    expect(mail.text).toContain('http://xtalk.test/reset-password?token=');
    const token = tokenOf(mail);
    const tooShort = await post('/api/auth/email/reset', { token, newPassword: 'short' });
    expect(tooShort.statusCode).toBe(400);
    const reset = await post('/api/auth/email/reset', { token, newPassword: 'second-password' });
    expect(reset.statusCode, reset.body).toBe(200);
    const reused = await post('/api/auth/email/reset', { token, newPassword: 'third-password' });
    expect(reused.statusCode).toBe(400);
    expect((await login('reset@example.com', 'first-password')).statusCode).toBe(401);
    expect((await login('reset@example.com', 'second-password')).statusCode).toBe(200);
  });

  it('refuses expired verification and reset links', async () => {
    await post('/api/auth/email/register', { email: 'late@example.com', password: 'late-password' });
    const verifyMail = await env.mailbox.next();
    env.offsetMs = 25 * 3600_000;
    const verify = await post('/api/auth/email/verify', { token: tokenOf(verifyMail) });
    expect(verify.statusCode).toBe(400);
    expect(verify.json().code).toBe('invalid_link');
    env.offsetMs = 0;
    // a fresh link works
    await post('/api/auth/email/resend', { email: 'late@example.com' });
    expect(
      (await post('/api/auth/email/verify', { token: tokenOf(await env.mailbox.next()) })).statusCode,
    ).toBe(200);

    await post('/api/auth/email/forgot', { email: 'late@example.com' });
    const resetMail = await env.mailbox.next();
    env.offsetMs = 2 * 3600_000;
    const reset = await post('/api/auth/email/reset', {
      token: tokenOf(resetMail),
      newPassword: 'new-password',
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().code).toBe('invalid_link');
    env.offsetMs = 0;
    expect((await login('late@example.com', 'late-password')).statusCode).toBe(200);
  });

  it('answers refused addresses, passwords and links with codes the web words', async () => {
    const refusals: [string, object, string][] = [
      ['register', { email: 'codes@example.com', password: 'short' }, 'password_too_short'],
      ['register', { email: 'codes@example.com', password: 'x'.repeat(201) }, 'password_too_long'],
      ['register', { email: 'not-an-address', password: 'long-enough' }, 'invalid_email'],
      ['forgot', { email: '' }, 'invalid_email'],
      ['login', { email: 'codes@example.com', password: '' }, 'bad_request'],
      ['verify', { token: 'no-such-token' }, 'invalid_link'],
      ['reset', { token: 'no-such-token', newPassword: 'short' }, 'password_too_short'],
      ['reset', { token: 'no-such-token', newPassword: 'long-enough' }, 'invalid_link'],
    ];
    for (const [route, payload, code] of refusals) {
      const answer = await post(`/api/auth/email/${route}`, payload);
      expect([route, answer.statusCode, answer.json().code], answer.body).toEqual([route, 400, code]);
      expect(answer.json().message, route).toEqual(expect.any(String));
    }
    // nothing was stored: the refused registrations left no account behind
    const unknown = await login('codes@example.com', 'long-enough');
    expect([unknown.statusCode, unknown.json().code]).toEqual([401, 'wrong_credentials']);
  });

  it('changes the password of the signed-in player with the current one', async () => {
    await registerAndVerify('change@example.com', 'old-password');
    const { token } = signInResponseSchema.parse((await login('change@example.com', 'old-password')).json());
    const put = (payload: object, bearer?: string) =>
      env.server.app.inject({
        method: 'PUT',
        url: '/api/player/password',
        payload,
        remoteAddress: env.ip,
        ...(bearer ? { headers: { authorization: `Bearer ${bearer}` } } : {}),
      });
    const anonymous = await put({ password: 'old-password', newPassword: 'new-password' });
    expect([anonymous.statusCode, anonymous.json().code]).toEqual([401, 'unauthorized']);
    const wrong = await put({ password: 'not-it-at-all', newPassword: 'new-password' }, token);
    expect([wrong.statusCode, wrong.json().code]).toEqual([403, 'wrong_password']);
    const short = await put({ password: 'old-password', newPassword: 'short' }, token);
    expect([short.statusCode, short.json().code]).toEqual([400, 'password_too_short']);
    const changed = await put({ password: 'old-password', newPassword: 'new-password' }, token);
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await login('change@example.com', 'old-password')).statusCode).toBe(401);
    expect((await login('change@example.com', 'new-password')).statusCode).toBe(200);

    const guest = await guestLogin(env.server.app);
    const noEmail = await put({ password: 'whatever-it-is', newPassword: 'new-password' }, guest.token);
    expect([noEmail.statusCode, noEmail.json().code]).toEqual([400, 'no_password']);
  });

  it('limits wrong passwords per account and per IP, and mails per address', async () => {
    await registerAndVerify('limited@example.com', 'right-password');
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await login('limited@example.com', 'wrong-password', undefined);
      expect([wrong.statusCode, wrong.json().code]).toEqual([401, 'wrong_credentials']);
    }
    // the account is locked for this window, even with the right password and from another address
    const locked = await post(
      '/api/auth/email/login',
      { email: 'limited@example.com', password: 'right-password' },
      undefined,
      '10.9.9.9',
    );
    expect([locked.statusCode, locked.json().code]).toEqual([429, 'rate_limited']);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    env.offsetMs = 16 * 60_000;
    expect((await login('limited@example.com', 'right-password')).statusCode).toBe(200);

    // one IP guessing across many accounts
    env.offsetMs = 0;
    const guesser = '10.200.0.1';
    for (let attempt = 0; attempt < 20; attempt++) {
      const response = await post(
        '/api/auth/email/login',
        { email: `x${attempt}@example.com`, password: 'guess-guess' },
        undefined,
        guesser,
      );
      expect(response.statusCode).toBe(401);
    }
    const blocked = await post(
      '/api/auth/email/login',
      { email: 'limited@example.com', password: 'right-password' },
      undefined,
      guesser,
    );
    expect(blocked.statusCode).toBe(429);

    // resend: three mails per address per hour
    await post('/api/auth/email/register', { email: 'spam@example.com', password: 'spam-password' });
    await env.mailbox.next();
    await post('/api/auth/email/resend', { email: 'spam@example.com' }, undefined, '10.201.0.1');
    await post('/api/auth/email/resend', { email: 'spam@example.com' }, undefined, '10.201.0.2');
    await env.mailbox.next();
    await env.mailbox.next();
    const fourth = await post(
      '/api/auth/email/resend',
      { email: 'spam@example.com' },
      undefined,
      '10.201.0.3',
    );
    expect(fourth.statusCode).toBe(429);
  });
});

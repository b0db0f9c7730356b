import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Mailbox, type ReceivedMail, startMailbox } from '../apps/server/src/testing/mailbox.js';
import { productInBrowser } from './block-hooks.js';
import { enterAsGuest, newPerson } from './lib/people.js';
import { messageWith, movedRoomIdOf, roomIdOf, say } from './lib/room.js';
import { sendEmailForm } from './lib/sign-in.js';

/*
 * Email accounts in Chromium: an email account from /signup, confirmed by the link in the mail (a real SMTP
 * server on 127.0.0.1 receives it), signed in on /login, password changed; and a guest who chatted signs
 * in with email and still finds that room in Past Rooms.
 */

function linkIn(mail: ReceivedMail): string {
  const match = /https?:\/\/\S+token=[\w-]+/.exec(mail.text);
  if (!match) throw new Error(`no link in: ${mail.text}`);
  return match[0];
}

describe('email accounts in the browser', () => {
  let mailbox: Mailbox;
  beforeAll(async () => {
    mailbox = await startMailbox();
  });
  afterAll(() => mailbox?.close());
  const product = productInBrowser(() => ({ SMTP_URL: mailbox.url }));

  it('signs up with email, confirms from the mail, signs in and changes the password', async () => {
    const { context, page } = await newPerson(product.browser, product.server.url);
    await page.goto('/signup');
    await sendEmailForm(page, 'erin@example.com', 'first-password');
    await page.getByTestId('email-notice').waitFor();
    // this server sends mail: no warning that it does not
    expect(await page.getByTestId('email-no-mail').count()).toBe(0);

    const mail = await mailbox.next();
    expect(mail.to).toBe('erin@example.com');
    await page.goto(linkIn(mail));
    await page.getByTestId('email-page-ok').waitFor();
    // the spent link again, on a Japanese page: the refusal is worded in Japanese, not the
    // server's English
    await page.evaluate(() => localStorage.setItem('lang', 'ja'));
    await page.goto(linkIn(mail));
    await page
      .getByTestId('email-page-error')
      .getByText('このリンクは無効か、期限切れか、すでに使用されています。', { exact: false })
      .waitFor();
    await page.evaluate(() => localStorage.setItem('lang', 'en'));
    await page.reload();
    await page
      .getByTestId('email-page-error')
      .getByText('This link is invalid, expired or already used.', {
        exact: false,
      })
      .waitFor();
    await page.getByTestId('verify-to-login').click();
    await page.waitForURL(/\/login$/);

    // a wrong password is refused in words; the right one signs in
    await sendEmailForm(page, 'erin@example.com', 'not-the-password');
    await page.getByRole('alert').getByText('The email or the password is wrong.').waitFor();
    await sendEmailForm(page, 'erin@example.com', 'first-password');
    await page.waitForURL(/\/translate/, { timeout: 30_000 });
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').provider)).toBe('ggl');

    await page.goto('/account/password');
    await page.getByTestId('current-password').fill('first-password');
    await page.getByTestId('new-password').fill('second-password');
    await page.getByTestId('password-submit').click();
    await page.getByTestId('email-page-ok').waitFor();

    // the new password is the one that works now
    await page.goto('/logout');
    await page.waitForURL(/\/login$/);
    await sendEmailForm(page, 'erin@example.com', 'first-password');
    await page.getByRole('alert').getByText('The email or the password is wrong.').waitFor();
    await sendEmailForm(page, 'erin@example.com', 'second-password');
    await page.waitForURL(/\/translate/, { timeout: 30_000 });
    await context.close();
  });

  it('a guest who chatted signs in with email and still sees that room in Past Rooms', async () => {
    // an existing, confirmed account
    const register = await fetch(`${product.server.url}/api/auth/email/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'gus@example.com', password: 'gus-password' }),
    });
    expect(register.status).toBe(202);
    const token = new URL(linkIn(await mailbox.next())).searchParams.get('token');
    const verify = await fetch(`${product.server.url}/api/auth/email/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(verify.status).toBe(200);

    const { context, page } = await newPerson(product.browser, product.server.url);
    await enterAsGuest(page);
    const chatted = await roomIdOf(page);
    await say(page, 'Hello as a guest');
    await messageWith(page, 'Hello as a guest').waitFor({ timeout: 15_000 });

    // a second room, so the first is in Past Rooms only if the guest's history came along
    page.once('dialog', (confirm) => void confirm.accept());
    await page.getByTestId('settings-menu').click();
    await page.getByRole('menuitem', { name: 'Create A Room', exact: true }).click();
    const current = await movedRoomIdOf(page, chatted);
    await page.getByTestId('connecting-overlay').waitFor({ state: 'detached', timeout: 20_000 });

    await page.getByTestId('login-button').click();
    await page.waitForURL(/\/login$/);
    await sendEmailForm(page, 'gus@example.com', 'gus-password');
    await page.waitForURL(new RegExp(`/translate\\?r=${current}$`), { timeout: 30_000 });
    await page.getByTestId('connecting-overlay').waitFor({ state: 'detached', timeout: 20_000 });

    await page.getByTestId('room-id-button').click();
    const pastRooms = page.getByTestId('past-rooms');
    await expect
      .poll(() =>
        pastRooms
          .getByTestId('past-room')
          .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-room-id'))),
      )
      .toEqual([current, chatted]);
    // rejoining it shows what was said as a guest
    await pastRooms.locator(`[data-room-id="${chatted}"]`).getByTestId('rejoin-button').click();
    await page.waitForURL(new RegExp(`/translate\\?r=${chatted}$`));
    await messageWith(page, 'Hello as a guest').waitFor({ timeout: 20_000 });
    await context.close();
  });
});

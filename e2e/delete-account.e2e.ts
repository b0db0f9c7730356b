import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Mailbox, startMailbox } from '../apps/server/src/testing/mailbox.js';
import { productInBrowser } from './block-hooks.js';
import { enterAsGuest, newPerson } from './lib/people.js';
import { connected, messageWith, roomIdOf, say } from './lib/room.js';
import { registerByEmail, signInWithEmail } from './lib/sign-in.js';

/*
 * Deleting an account, in Chromium: Alice (an email account, English) and Bob (a guest, Japanese) share a
 * room. Alice deletes her account from the profile dialog with the typed confirmation and is signed out;
 * Bob sees her old message go to 削除されたユーザー at once, with no name and no avatar, and so it stays
 * when he comes back to the room.
 */

const EMAIL = 'leaving@example.com';
const PASSWORD = 'leaving-password';

describe('deleting an account in the browser', () => {
  let mailbox: Mailbox;
  beforeAll(async () => {
    mailbox = await startMailbox();
  });
  afterAll(() => mailbox?.close());
  const product = productInBrowser(() => ({ SMTP_URL: mailbox.url }));

  it('deletes from the profile dialog; the other person sees a deleted user on the old messages, live', async () => {
    await registerByEmail(product.server.url, mailbox, EMAIL, PASSWORD);

    const alice = await newPerson(product.browser, product.server.url);
    await signInWithEmail(alice.page, EMAIL, PASSWORD);
    await connected(alice.page);
    const room = await roomIdOf(alice.page);
    const bob = await newPerson(product.browser, product.server.url, { language: 'ja' });
    await enterAsGuest(bob.page, `/translate?r=${room}`);
    await connected(bob.page);
    await say(alice.page, 'Goodbye from Alice');
    const hers = messageWith(bob.page, 'Goodbye from Alice');
    await hers.waitFor({ timeout: 15_000 });
    expect(await hers.getByTestId('author').textContent()).not.toContain('削除');

    await alice.page.getByTestId('settings-menu').click();
    await alice.page.getByRole('menuitem', { name: 'Settings', exact: true }).click();
    await alice.page.getByTestId('profile-delete-account').click();
    const confirm = alice.page.getByTestId('delete-account-confirm');
    expect(await confirm.isDisabled()).toBe(true);
    await alice.page.getByTestId('delete-confirm-word').fill('DELETE');
    await confirm.click();
    await alice.page.waitForURL(/\/login$/, { timeout: 20_000 });
    expect(await alice.page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // Bob, still in the room, sees it at once, without a reload
    await expect
      .poll(() => hers.getByTestId('author').textContent(), { timeout: 15_000 })
      .toBe('削除されたユーザー');
    expect(await hers.getByTestId('deleted-avatar').count()).toBe(1);

    // and coming back to the room: the old message is there, its author a deleted user
    await bob.page.reload();
    await connected(bob.page);
    const after = messageWith(bob.page, 'Goodbye from Alice');
    await after.waitFor({ timeout: 15_000 });
    expect(await after.getByTestId('author').textContent()).toBe('削除されたユーザー');
    expect(await after.getByTestId('deleted-avatar').count()).toBe(1);
    await alice.context.close();
    await bob.context.close();
  });
});

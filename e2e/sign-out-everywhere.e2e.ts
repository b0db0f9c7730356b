import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Mailbox, startMailbox } from '../apps/server/src/testing/mailbox.js';
import { productInBrowser } from './block-hooks.js';
import { newPerson } from './lib/people.js';
import { connected, messageWith, roomIdOf, say } from './lib/room.js';
import { registerByEmail, signInWithEmail } from './lib/sign-in.js';

/*
 * Sessions end, in Chromium: one person signed in on two browsers (a phone in English, another in
 * Japanese), both in the same room. "Sign out everywhere" in the profile dialog of one ends the other's
 * session and closes its socket as signed out: the other lands on the sign-in page and stays there.
 */

const EMAIL = 'both@example.com';
const PASSWORD = 'both-password';
const PHONE = { width: 390, height: 844 };

/** The profile dialog from the settings menu, checked by axe (no serious or critical violation). */
async function openProfile(page: Page, menuLabel: string): Promise<string[]> {
  await page.getByTestId('settings-menu').click();
  await page.getByRole('menuitem', { name: menuLabel, exact: true }).click();
  await page.getByTestId('profile-sign-out-everywhere').waitFor();
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const result = await new AxeBuilder({ page })
    .include('[role="dialog"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('sign out everywhere in the browser', () => {
  let mailbox: Mailbox;
  beforeAll(async () => {
    mailbox = await startMailbox();
  });
  afterAll(() => mailbox?.close());
  const product = productInBrowser(() => ({ SMTP_URL: mailbox.url }));

  it("ends the other browser's session and socket, which lands on the sign-in page", async () => {
    await registerByEmail(product.server.url, mailbox, EMAIL, PASSWORD);

    const phone = await newPerson(product.browser, product.server.url, { viewport: PHONE });
    const other = await newPerson(product.browser, product.server.url, { viewport: PHONE, language: 'ja' });
    await signInWithEmail(phone.page, EMAIL, PASSWORD);
    await connected(phone.page);
    const room = await roomIdOf(phone.page);
    await signInWithEmail(other.page, EMAIL, PASSWORD);
    await other.page.goto(`/translate?r=${room}`);
    await connected(other.page);
    await say(phone.page, 'Both of me are here');
    await messageWith(other.page, 'Both of me are here').waitFor({ timeout: 15_000 });

    // the dialog with its new item is clean in both languages
    expect(await openProfile(other.page, '設定')).toEqual([]);
    await other.page.keyboard.press('Escape');
    await other.page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await openProfile(phone.page, 'Settings')).toEqual([]);

    await phone.page.getByTestId('profile-sign-out-everywhere').click();
    await phone.page.waitForURL(/\/login$/, { timeout: 20_000 });
    // the other browser's socket was closed as signed out: to the sign-in page, its session forgotten
    await other.page.waitForURL(/\/login$/, { timeout: 20_000 });
    await other.page.getByTestId('login').waitFor();
    expect(await other.page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    // and the session is over on the server too: nothing to reconnect with
    const joins: string[] = [];
    other.page.on('request', (request) => {
      if (request.url().endsWith('/xtalk')) joins.push(request.url());
    });
    await other.page.reload();
    await other.page.getByTestId('login').waitFor();
    expect(other.page.url()).toMatch(/\/login$/);
    expect(joins).toEqual([]);
    await phone.context.close();
    await other.context.close();
  });
});

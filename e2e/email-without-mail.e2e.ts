import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';
import { newPerson } from './lib/people.js';

/*
 * A server without SMTP_URL writes account mails only to its log: /signup says so before the person
 * types anything, in their language, instead of promising a mail that never comes.
 */

describe('email sign-up on a server without mail', () => {
  const product = productInBrowser();

  it('says on /signup, before anything is typed, that no mail will arrive', async () => {
    const { context, page } = await newPerson(product.browser, product.server.url);
    await page.goto('/signup');
    const note = page.getByTestId('email-no-mail');
    await note.getByText('This server sends no mail yet', { exact: false }).waitFor();
    expect(await page.getByTestId('email-address').inputValue()).toBe('');

    await page.evaluate(() => localStorage.setItem('lang', 'ja'));
    await page.reload();
    await note.getByText('このサーバーはメールを送れない', { exact: false }).waitFor();

    // the sign-in form needs no mail and says nothing about it
    await page.goto('/login');
    await page.getByTestId('email-form').waitFor();
    await page
      .locator('[data-testid="sign-in-providers"][data-state="ready"]')
      .waitFor({ state: 'attached' });
    expect(await page.getByTestId('google-signin').count()).toBe(0);
    expect(await note.count()).toBe(0);
    await context.close();
  });
});

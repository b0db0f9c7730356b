import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { productWithGoogle } from './block-hooks.js';
import { enterAsGuest, newPerson } from './lib/people.js';
import { messageWith, say } from './lib/room.js';
import { signInFromRoom } from './lib/sign-in.js';

/*
 * Credits in Chromium against the built server (embedded defaults: PGlite, the fake AI, the
 * built-in TEST MODE checkout): a guest sees Login and no balance; signed in ("Google" is a real OpenID
 * provider on 127.0.0.1) the header shows the daily free credits, a translated message spends some and
 * the header follows live, the Credit Balance dialog buys 1,000 credits through the test checkout in a
 * new window, and the room's tab shows the grown balance without a reload.
 */

const balanceOf = (page: Page) =>
  page
    .getByTestId('balance-button')
    .getAttribute('data-credits')
    .then((value) => (value === null ? undefined : Number(value)));

describe('credits in the browser', () => {
  const product = productWithGoogle(
    { sub: 'e2e-buyer', name: 'Carol Buyer', email: 'carol@example.com' },
    {
      CREDITS_DAILY_FREE: '1000',
    },
  );

  it('shows the balance, spends it on translation, and buys 1,000 credits in a new window', async () => {
    const { context, page } = await newPerson(product.browser, product.server.url);

    // a guest keeps the Login button and sees no balance
    await enterAsGuest(page);
    await page.getByTestId('login-button').waitFor();
    expect(await page.getByTestId('balance-button').count()).toBe(0);

    // signed in: back in the room, the daily free credits in the header (green above 700)
    await signInFromRoom(page);
    expect(await page.getByTestId('login-button').count()).toBe(0);
    const button = page.getByTestId('balance-button');
    await expect.poll(() => balanceOf(page), { timeout: 15_000 }).toBe(1000);
    expect(await button.getAttribute('data-tone')).toBe('green');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('bal') ?? 'null'))).toEqual({
      free: 1000,
      premium: 0,
    });

    // this tab is never reloaded from here on: a reload would drop the marker
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

    // a message translated into Japanese is paid from the balance; system BALANCE moves the header
    const text = 'Good morning everyone, this sentence is translated and paid for with credits';
    await say(page, text);
    await messageWith(page, text).getByTestId('translation').first().waitFor({ timeout: 20_000 });
    await expect.poll(() => balanceOf(page), { timeout: 15_000 }).toBeLessThan(1000);
    const afterChat = (await balanceOf(page))!;
    expect(afterChat).toBeGreaterThan(700);

    // the dialog says the same as the header (the hint and speech of that message may still be charged,
    // so the two are compared, not a number read earlier), with the three packages
    await button.click();
    const dialog = page.getByTestId('credit-dialog');
    await dialog.getByText('Credit Balance').waitFor();
    const said = dialog.getByTestId('credit-balance');
    await expect.poll(() => said.textContent()).toMatch(/^You have \d{3} credits\.$/);
    await expect
      .poll(async () => [await said.getAttribute('data-credits'), String(await balanceOf(page))])
      .toSatisfy(([inDialog, inHeader]) => inDialog === inHeader);
    await dialog.getByText('Replenishes in', { exact: false }).waitFor();
    await dialog.getByText('Buy more credits:').waitFor();
    expect(await dialog.getByTestId('credit-package').count()).toBe(3);

    // 1,000 credits: the checkout opens in a new window; TEST MODE; Pay
    const popupOpened = context.waitForEvent('page');
    await dialog.locator('[data-testid="credit-package"][data-credits="1000"]').click();
    const checkout = await popupOpened;
    await checkout.waitForURL(/\/api\/payments\/test-checkout\//, { timeout: 15_000 });
    await checkout.getByText('TEST MODE', { exact: false }).first().waitFor();
    expect(await checkout.content()).toContain('TEST MODE');
    await checkout.getByRole('button', { name: /^Pay\b/ }).click();

    // the landing page confirms with the server and shows the new balance
    await checkout.waitForURL(/\/checkout\?status=success/, { timeout: 15_000 });
    const result = checkout.getByTestId('checkout-result');
    await expect.poll(() => result.getAttribute('data-state'), { timeout: 15_000 }).toBe('paid');
    // bought credits are the premium part, which spending touches only when free runs out: whatever
    // the translation still charges (hints, speech) comes out of free, so premium is exactly 1,000
    await expect.poll(() => result.textContent()).toMatch(/Your balance is now [\d,]+ credits\./);
    const landed = await result.textContent();
    const shown = Number(/Your balance is now ([\d,]+) credits\./.exec(landed ?? '')?.[1]?.replace(/,/g, ''));
    expect(shown).toBeGreaterThan(afterChat);
    await checkout.close();

    // the room's tab shows it without a reload, in the header and in the open dialog
    const stored = () =>
      page.evaluate(
        () => JSON.parse(localStorage.getItem('bal') ?? 'null') as { free: number; premium: number },
      );
    await expect.poll(() => stored().then((bal) => bal.premium), { timeout: 15_000 }).toBe(1000);
    // header and open dialog both show it (compared with each other at the same moment: the message's
    // hint and speech may still be charged from free)
    await expect
      .poll(async () => {
        const bal = await stored();
        const dialogCredits = await said.getAttribute('data-credits');
        return [bal.free + bal.premium, await balanceOf(page), Number(dialogCredits)];
      })
      .toSatisfy(([inStorage, inHeader, inDialog]) => inStorage === inHeader && inHeader === inDialog);
    expect(await balanceOf(page)).toBeGreaterThan(afterChat + 900);
    expect(await button.getAttribute('data-tone')).toBe('green');
    // closing and opening again asks the server: the grown balance, and no replenish hint above 1,000
    await dialog.getByTestId('credit-close').click();
    await dialog.waitFor({ state: 'detached' });
    await button.click();
    await expect.poll(() => dialog.getByTestId('credit-refresh').getAttribute('aria-busy')).toBeNull();
    expect(Number(await dialog.getByTestId('credit-balance').getAttribute('data-credits'))).toBeGreaterThan(
      afterChat + 900,
    );
    expect(await dialog.getByTestId('credit-replenish').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

    await context.close();
  });
});

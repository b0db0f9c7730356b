import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';
import { takePolicyViolations } from './lib/browser.js';
import { newPerson } from './lib/people.js';
import { withScriptsHeld } from './lib/scripts-held.js';

/*
 * /guest-login paints its card before the app's script (decision 0262), and in the reader's chosen theme
 * from that first paint, whatever the system's scheme (decision 0263): the page's inline script, which
 * the policy admits by its hash, applies the stored theme. Any other inline script is still refused.
 */

/** What the theme decides on the page: the document's scheme and the backgrounds and text drawn. */
function schemeNow() {
  const style = (element: Element) => getComputedStyle(element);
  const card = document.querySelector('[data-testid="guest-login"]')!;
  return {
    scheme: style(document.documentElement).colorScheme,
    page: style(document.body).backgroundColor,
    card: style(card).backgroundColor,
    text: style(card.querySelector('h1')!).color,
  };
}

describe('the guest page’s theme', () => {
  const product = productInBrowser();

  it.each([
    ['dark', 'light'],
    ['light', 'dark'],
  ] as const)('is the chosen %s from the first paint on a %s system', async (theme, system) => {
    const { context, page } = await newPerson(product.browser, product.server.url, {
      viewport: { width: 390, height: 844 },
    });
    await context.addInitScript((stored) => localStorage.setItem('ui-theme', stored), theme);
    await page.emulateMedia({ colorScheme: system });
    const release = await withScriptsHeld(page, '/guest-login');
    await page.locator('[data-testid="guest-login"] ol[inert]').waitFor();
    const painted = await page.evaluate(schemeNow);
    expect(painted.scheme).toBe(theme);

    await release();
    await page.locator('[data-testid="guest-login"] ol:not([inert])').waitFor();
    expect(await page.evaluate(schemeNow)).toEqual(painted);
    // e2e/setup.ts fails the test on any violation: the theme's script ran under the policy
    await context.close();
  });

  it('refuses any other inline script', async () => {
    const { context, page } = await newPerson(product.browser, product.server.url);
    await page.goto('/guest-login');
    await page.getByTestId('guest-login').waitFor();
    const refused = await page.evaluate(
      () =>
        new Promise<{ directive: string; ran: boolean }>((resolve) => {
          document.addEventListener('securitypolicyviolation', (event) =>
            resolve({
              directive: event.effectiveDirective,
              ran: 'injected' in window,
            }),
          );
          const script = document.createElement('script');
          script.textContent = 'window.injected = true;';
          document.head.append(script);
        }),
    );
    expect(refused).toEqual({ directive: 'script-src-elem', ran: false });
    // Chromium says it twice, and the page's watch once: this test's own, taken as they come
    const said: string[] = [];
    await expect
      .poll(() => {
        said.push(...takePolicyViolations());
        return [/^Executing inline script/, /^CSP violation: script-src-elem blocked inline/].map((message) =>
          said.some((text) => message.test(text)),
        );
      })
      .toEqual([true, true]);
    await context.close();
  });
});

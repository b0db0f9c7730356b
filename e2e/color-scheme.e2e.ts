import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { productInBrowser } from './block-hooks.js';
import { enterAsGuest, newPerson } from './lib/people.js';

/*
 * The browser's own parts (scrollbars, form controls, the page's canvas) follow the theme: the stylesheet
 * gives the document the system's scheme until the app applies the stored theme, then the theme's.
 */

const schemeOf = (page: Page, selector: string) =>
  page.$eval(selector, (element) => getComputedStyle(element).colorScheme);

describe("the document's color-scheme", () => {
  const product = productInBrowser();

  it("is the system's before the app's script has run", async () => {
    const context = await product.browser.newContext({
      baseURL: product.server.url,
      javaScriptEnabled: false,
      colorScheme: 'dark',
    });
    const page = await context.newPage();
    await page.goto('/guest-login');
    expect(await schemeOf(page, 'html')).toBe('light dark');
    await context.close();
  });

  it.each([
    ['dark', 'light'],
    ['light', 'dark'],
  ] as const)('is the theme (%s) in the room, whatever the system (%s)', async (theme, system) => {
    const { context, page } = await newPerson(product.browser, product.server.url, {
      viewport: { width: 390, height: 844 },
    });
    await context.addInitScript((stored) => localStorage.setItem('ui-theme', stored), theme);
    await page.emulateMedia({ colorScheme: system });
    await enterAsGuest(page);
    expect(await schemeOf(page, 'html')).toBe(theme);
    expect(await schemeOf(page, '[data-testid="message-list"]')).toBe(theme);
    await context.close();
  });
});

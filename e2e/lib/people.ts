import type { Browser, BrowserContext, Page } from 'playwright-core';

/* A person in the product: a browser context of their own, and the way in as a guest. */

export interface Person {
  context: BrowserContext;
  page: Page;
}

export interface PersonOptions {
  /** Show XTalkChan's first-connection tutorial (off by default: other tests count messages). */
  tutorial?: boolean;
  viewport?: { width: number; height: number };
  /** Interface language stored before the first page loads. */
  language?: 'en' | 'ja';
}

export async function newPerson(
  browser: Browser,
  baseUrl: string,
  options: PersonOptions = {},
): Promise<Person> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: options.viewport ?? { width: 1100, height: 800 },
  });
  await context.addInitScript(
    ({ tutorial, language }) => {
      if (!tutorial && localStorage.getItem('tut') === null) localStorage.setItem('tut', '1');
      if (language && localStorage.getItem('lang') === null) localStorage.setItem('lang', language);
    },
    { tutorial: options.tutorial ?? false, language: options.language },
  );
  // as the app keeps it for the server beside storage, so the page sent is the one for that language
  if (options.language) await context.addCookies([{ name: 'lang', value: options.language, url: baseUrl }]);
  await context.grantPermissions(['microphone', 'clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('[page error]', error.message));
  return { context, page };
}

/** From any page to a room: the bot check solves itself, then the microphone step, then the room. */
export async function enterAsGuest(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await page.getByTestId('guest-login').waitFor();
  // the app's button, not the inert one of the markup the page is painted with before its script
  const mic = page.locator('[data-testid="mic-permission"]:not([inert] *)');
  await mic.waitFor({ timeout: 30_000 });
  await mic.click();
  await page.waitForURL(/\/translate\?r=[A-Z0-9]{7}/, { timeout: 30_000 });
  await page.getByTestId('message-list').waitFor();
  await page.getByTestId('connecting-overlay').waitFor({ state: 'detached', timeout: 20_000 });
}

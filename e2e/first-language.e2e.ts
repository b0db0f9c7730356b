import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';
import { recordTexts, textsOf } from './lib/page-texts.js';
import { newPerson } from './lib/people.js';

/*
 * A reader whose language is not English (its words a chunk of their own, decision 0188): a returning
 * reader's page preloads the words (the server sends the page for the language cookie, decision 0241), so
 * the first render waits for no request of its own and is in that language from its first text; a start
 * without those words (offline, not kept by the worker) is in English, says so, and says `lang=en`.
 */

const JA_WORDS = /\/assets\/ja-[^/]+\.js$/;
const KANA = /[\u3040-\u30ff]/;

async function loginPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByTestId('login').waitFor();
  return page;
}

describe('a first render in the reader’s language', () => {
  const product = productInBrowser();

  it('preloads a returning Japanese reader’s words with the page, Japanese from the first text', async () => {
    const ichiro = await newPerson(product.browser, product.server.url, { language: 'ja' });
    // a reader from before the cookie: the app writes it
    await ichiro.context.clearCookies();
    await ichiro.page.goto('/login');
    await ichiro.page.getByTestId('login').waitFor();
    // the app keeps the language in a cookie for the server, beside storage
    const cookies = await ichiro.context.cookies(product.server.url);
    expect(cookies.find((cookie) => cookie.name === 'lang')?.value).toBe('ja');

    await ichiro.context.addInitScript(recordTexts);
    const page = await loginPage(ichiro.context);
    await page.waitForLoadState('networkidle');
    const timing = await page.evaluate((pattern) => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const path = (entry: PerformanceResourceTiming) => new URL(entry.name).pathname;
      const words = entries.filter((entry) => new RegExp(pattern).test(path(entry)));
      const entry = document.querySelector<HTMLScriptElement>('script[type="module"][src]')!.src;
      return {
        words: words.map((item) => item.startTime),
        entryLoaded: entries.find((item) => item.name === entry)?.responseEnd,
      };
    }, JA_WORDS.source);
    // asked for once, by the page's markup while the entry was still on its way, not by the entry once it
    // had run (a round trip after it)
    expect(timing.words).toHaveLength(1);
    expect(timing.entryLoaded).toBeDefined();
    expect(timing.words[0]).toBeLessThan(timing.entryLoaded!);
    const texts = await textsOf(page);
    expect(texts.length).toBeGreaterThan(0);
    for (const { lang, text } of texts) {
      expect(text).toMatch(KANA);
      expect(lang).toBe('ja');
    }
    expect(texts.at(-1)?.text).toContain('XTalkへようこそ');
    await ichiro.context.close();
  });

  it('starts in English under lang=en, and says so, when the words cannot be fetched', async () => {
    const jiro = await newPerson(product.browser, product.server.url, { language: 'ja' });
    await jiro.context.addInitScript(recordTexts);
    await jiro.context.route(JA_WORDS, (route) => route.abort('internetdisconnected'));
    const page = await loginPage(jiro.context);
    const notice = page.getByTestId('words-offline');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('Your language (Japanese) could not be loaded');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    const texts = await textsOf(page);
    expect(texts.at(-1)?.text).toContain('Welcome to XTalk');
    // never English under lang=ja
    for (const { lang } of texts) expect(lang).toBe('en');
    await jiro.context.close();
  });
});

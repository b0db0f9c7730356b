import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';
import { recordTexts, textsOf } from './lib/page-texts.js';
import { newPerson } from './lib/people.js';
import { withScriptsHeld } from './lib/scripts-held.js';

/*
 * /guest-login comes with its card's markup in the reader's language, painted before any script runs;
 * the app's first render replaces it with the same card: the same words under the same `lang`, every box
 * where it was, nothing shown in between.
 */

/** The card's words and boxes, whether the page's markup or the app's render shows it. */
function cardNow() {
  const card = document.querySelector('[data-testid="guest-login"]')!;
  const box = (selector: string) => {
    const { top, left, width, height } = card.querySelector(selector)!.getBoundingClientRect();
    return { top, left, width, height };
  };
  return {
    lang: document.documentElement.lang,
    text: card.querySelector('h1 + p')!.textContent,
    inert: card.querySelector('ol')!.inert,
    boxes: [
      box('h1'),
      box('h1 + p'),
      box('[data-testid="mic-permission"]'),
      card.getBoundingClientRect().toJSON(),
    ],
  };
}

const KANA = /[\u3040-\u30ff]/;

describe('the guest page’s markup', () => {
  const product = productInBrowser();

  it.each(['en', 'ja'] as const)(
    'is painted before the script and replaced in place (%s)',
    async (language) => {
      const { context, page } = await newPerson(product.browser, product.server.url, {
        viewport: { width: 390, height: 844 },
        language,
      });
      await context.addInitScript(recordTexts);
      const release = await withScriptsHeld(page, '/guest-login');
      await page.locator('[data-testid="guest-login"] ol[inert]').waitFor();
      const painted = await page.evaluate(cardNow);
      expect(painted.lang).toBe(language);
      expect(KANA.test(painted.text ?? '')).toBe(language === 'ja');

      await release();
      await page.locator('[data-testid="guest-login"] ol:not([inert])').waitFor();
      const rendered = await page.evaluate(cardNow);
      expect(rendered).toEqual({ ...painted, inert: false });
      // nothing else was shown between the two, and never words of another language under `lang`
      const texts = await textsOf(page);
      expect(texts.length).toBeGreaterThan(0);
      for (const { lang, text } of texts) {
        expect(lang).toBe(language);
        expect(text).toContain(painted.text);
      }
      await context.close();
    },
  );
});

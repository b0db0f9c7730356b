import type { Page } from 'playwright-core';

/* What a page's #root showed, and under which `lang`, from its first render on. */

export interface ShownText {
  lang: string;
  text: string;
}

/** An init script: every text #root shows, with the page's `lang` at that moment, from the first mutation on. */
export function recordTexts() {
  const w = window as unknown as { __texts: ShownText[] };
  w.__texts = [];
  new MutationObserver(() => {
    const text = document.getElementById('root')?.textContent;
    if (text) w.__texts.push({ lang: document.documentElement.lang, text });
  }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
}

/** What `recordTexts` has seen so far. */
export const textsOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __texts: ShownText[] }).__texts);

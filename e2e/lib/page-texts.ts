import type { Page } from 'playwright-core';

/* What a page's #root showed, and under which `lang`, from its first render on. */

export interface ShownText {
  lang: string;
  text: string;
}

/**
 * An init script: every text #root shows, with the page's `lang` at that moment, from the first mutation
 * once the document is parsed. While it is parsed, #root's markup arrives in pieces (the parser may stop
 * anywhere in it when the network or a script in the head makes it yield): those are the page's own
 * words arriving, not a render, and no script of the app runs before the end of the parse.
 */
export function recordTexts() {
  const w = window as unknown as { __texts: ShownText[] };
  w.__texts = [];
  new MutationObserver(() => {
    if (document.readyState === 'loading') return;
    const text = document.getElementById('root')?.textContent;
    if (text) w.__texts.push({ lang: document.documentElement.lang, text });
  }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
}

/** What `recordTexts` has seen so far. */
export const textsOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __texts: ShownText[] }).__texts);

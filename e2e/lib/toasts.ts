import type { BrowserContext, Page } from 'playwright-core';

/** Records every toast the pages of `context` add, from their first paint: an exact count, with no sleep. */
export function recordToasts(context: BrowserContext) {
  return context.addInitScript(() => {
    const toasts: Element[] = [];
    Object.assign(window, { recordedToasts: toasts });
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          if (node.matches('[data-sonner-toast]')) toasts.push(node);
          toasts.push(...node.querySelectorAll('[data-sonner-toast]'));
        }
    }).observe(document, { childList: true, subtree: true });
  });
}

/** Each toast the page added (recordToasts), as its type and words, whatever became of it since. */
export const recordedToasts = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { recordedToasts: Element[] }).recordedToasts.map((toast) => ({
      type: toast.getAttribute('data-type'),
      text: toast.textContent ?? '',
    })),
  );

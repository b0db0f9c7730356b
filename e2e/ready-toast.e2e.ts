import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';
import { enterAsGuest, newPerson } from './lib/people.js';
import { recordToasts, recordedToasts } from './lib/toasts.js';

/*
 * The product spec: the connection is ready when the server sends READY, and the toast 'Ready!' says so
 * for 1.5 s. The first join says it too, in the interface language, as a toast like the others, and the
 * toast goes by itself.
 */
describe("'Ready!' when a room's connection is ready", () => {
  const product = productInBrowser();

  for (const [language, ready] of [
    ['en', 'Ready!'],
    ['ja', '準備完了！'],
  ] as const) {
    it(`says '${ready}' on the first join (${language}), then goes`, { timeout: 120_000 }, async () => {
      const person = await newPerson(product.browser, product.server.url, { language });
      await recordToasts(person.context);
      await enterAsGuest(person.page);
      await expect
        .poll(() => recordedToasts(person.page), { timeout: 15_000 })
        .toContainEqual({ type: 'success', text: ready });
      const shown = person.page.locator('[data-sonner-toast]', { hasText: ready });
      await shown.waitFor({ state: 'detached', timeout: 10_000 });
      expect((await recordedToasts(person.page)).filter((toast) => toast.text === ready)).toHaveLength(1);
      await person.context.close();
    });
  }
});

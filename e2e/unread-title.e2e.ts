import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';
import { say, twoGuestsInRoom } from './lib/room.js';

/*
 * While the tab is hidden the title counts the messages from others, "(2) XTalk"; back on the tab it is
 * cleared. The tab's visibility is switched by an init script (headless Chromium never hides a page).
 */
describe('the unread count in the title', () => {
  const product = productInBrowser();

  it('counts others’ messages while the tab is hidden and clears on return', async () => {
    const { alice, bob } = await twoGuestsInRoom(product.browser, product.server.url);
    await bob.page.evaluate(() => {
      let hidden = false;
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
      (window as unknown as { setHidden: (value: boolean) => void }).setHidden = (value) => {
        hidden = value;
        document.dispatchEvent(new Event('visibilitychange'));
      };
    });
    const base = await bob.page.title();
    const setHidden = (value: boolean) =>
      bob.page.evaluate(
        (v) => (window as unknown as { setHidden: (value: boolean) => void }).setHidden(v),
        value,
      );
    await setHidden(true);
    await say(alice.page, 'first while away');
    await say(alice.page, 'second while away');
    await expect.poll(() => bob.page.title(), { timeout: 20_000 }).toBe(`(2) ${base}`);
    // his own message does not count
    await say(bob.page, 'mine');
    await say(alice.page, 'third while away');
    await expect.poll(() => bob.page.title(), { timeout: 20_000 }).toBe(`(3) ${base}`);
    await setHidden(false);
    await expect.poll(() => bob.page.title()).toBe(base);
    await alice.context.close();
    await bob.context.close();
  });
});

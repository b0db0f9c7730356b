import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';
import { enterAsGuest, newPerson } from './lib/people.js';
import { messageWith, roomIdOf, say } from './lib/room.js';

/*
 * A browser that shows notifications only through a service worker (Chrome on Android: the Notification
 * constructor throws "Illegal constructor"): a message that arrives while the tab is hidden is shown by
 * the app's worker, and closed when the page is seen again. An init script makes this Chromium refuse the
 * constructor as Android's does, and stands in for document.hidden as notifications.e2e.ts does.
 *
 * Nothing reads the worker's notifications while one is being shown: Chromium's getNotifications() keeps a
 * stored notification only once the platform reports it on display (or when it was made after the read
 * began), and deletes every other from its records, so a read between the worker's write and the display
 * loses it for good (content/browser/notifications/platform_notification_context_impl.cc). A test that polled
 * getNotifications() while the message arrived lost it now and then. The init script notes each
 * showNotification() of the page once it has settled, and the test reads the list only after that.
 */

function behaveAsAndroid() {
  const Real = window.Notification;
  const Refused = function () {
    throw new TypeError('Illegal constructor. Use ServiceWorkerRegistration.showNotification() instead.');
  } as unknown as typeof Notification;
  Object.defineProperty(Refused, 'permission', { get: () => Real.permission });
  Object.defineProperty(Refused, 'requestPermission', { value: Real.requestPermission.bind(Real) });
  Object.defineProperty(window, 'Notification', { value: Refused, configurable: true, writable: true });
  let hidden = false;
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => hidden });
  Object.defineProperty(Document.prototype, 'visibilityState', {
    configurable: true,
    get: () => (hidden ? 'hidden' : 'visible'),
  });
  (window as unknown as { setHidden: (value: boolean) => void }).setHidden = (value) => {
    hidden = value;
    document.dispatchEvent(new Event('visibilitychange'));
  };
  const settled: string[] = [];
  (window as unknown as { settledShows: string[] }).settledShows = settled;
  const show = ServiceWorkerRegistration.prototype.showNotification;
  ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
    const shown = show.call(this, title, options);
    void shown.finally(() => settled.push(options?.body ?? ''));
    return shown;
  };
}

/** The bodies of the notifications whose showNotification() the page has seen settle. */
const settledShows = (page: Page) =>
  page.evaluate(() => (window as unknown as { settledShows: string[] }).settledShows);

const setHidden = (page: Page, value: boolean) =>
  page.evaluate((v) => (window as unknown as { setHidden: (value: boolean) => void }).setHidden(v), value);

/** The bodies of the notifications the page's service worker shows now. */
const shownByWorker = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return (await registration?.getNotifications())?.map((n) => n.body) ?? [];
  });

describe('notifications where only a service worker may show them', () => {
  const product = productInBrowser();

  it('are shown by the worker while the tab is hidden, and closed when it is seen', async () => {
    const alice = await newPerson(product.browser, product.server.url);
    await enterAsGuest(alice.page);
    const bob = await newPerson(product.browser, product.server.url);
    await bob.context.grantPermissions(['notifications'], { origin: product.server.url });
    await bob.context.addInitScript(behaveAsAndroid);
    await enterAsGuest(bob.page, `/translate?r=${await roomIdOf(alice.page)}`);
    await bob.page.evaluate(() => navigator.serviceWorker.ready);

    await bob.page.getByTestId('settings-menu').click();
    const item = bob.page.getByTestId('menu-notifications');
    await item.click();
    await expect.poll(() => item.getAttribute('aria-checked')).toBe('true');
    await bob.page.keyboard.press('Escape');

    await setHidden(bob.page, true);
    await say(alice.page, 'while you were away');
    await messageWith(bob.page, 'while you were away').waitFor();
    await expect.poll(() => settledShows(bob.page), { timeout: 20_000 }).toContain('while you were away');
    expect(await shownByWorker(bob.page)).toContain('while you were away');

    await setHidden(bob.page, false);
    await expect.poll(() => shownByWorker(bob.page)).toEqual([]);
    await alice.context.close();
    await bob.context.close();
  });
});

import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';
import { messageWith, say, twoGuestsInRoom } from './lib/room.js';

/*
 * Connection states say one thing at a time. The server goes away: a thin 'Reconnecting...' line, the
 * composer still usable, a typed message saying 'Will send when connected' and no red error; once the
 * client gives up, 'Disconnected.' with 'Tap to Reconnect'. The server comes back: a tap, and the message
 * goes out once. Nobody who was there before the restart is announced as joining.
 */
describe('connection states across a server restart', () => {
  // a grace long enough for a tap after a slow start on a loaded machine
  const product = productInBrowser({ LEAVE_GRACE_SECONDS: '20' });

  it(
    'reconnecting, given up, back: one message each, the typed message sent once, no JOIN',
    { timeout: 360_000 },
    async () => {
      const { alice, bob } = await twoGuestsInRoom(product.browser, product.server.url);
      await say(alice.page, 'Before the restart');
      await messageWith(bob.page, 'Before the restart').waitFor();
      const joinPills = (page: typeof alice.page) =>
        page.getByText(/has joined the chat|have joined the chat/);
      const joinsBefore = await Promise.all([alice.page, bob.page].map((page) => joinPills(page).count()));

      await product.server.stop();
      const banner = bob.page.getByTestId('reconnecting-banner');
      await banner.waitFor({ timeout: 20_000 });
      expect(await banner.textContent()).toBe('Reconnecting...');
      expect(await bob.page.getByTestId('reconnect-button').count()).toBe(0);

      // the composer stays usable; the message waits and says so, with no error anywhere
      expect(await bob.page.getByTestId('chat-input').isDisabled()).toBe(false);
      await say(bob.page, 'Typed while away');
      const pending = bob.page.getByTestId('pending-message');
      await pending.waitFor();
      expect(await pending.getAttribute('data-waiting')).toBe('true');
      expect(await pending.textContent()).toContain('Will send when connected');
      expect(await pending.textContent()).not.toContain('Sending');
      expect(await bob.page.locator('[data-sonner-toast][data-type="error"]').count()).toBe(0);
      expect(await bob.page.getByText('Not connected.').count()).toBe(0);

      // given up: 'Disconnected.' and the button, the thin line gone
      const disconnected = bob.page.getByTestId('disconnected-banner');
      await disconnected.waitFor({ timeout: 90_000 });
      expect(await disconnected.textContent()).toContain('Disconnected.');
      expect(await banner.count()).toBe(0);
      expect(await bob.page.locator('[data-sonner-toast][data-type="error"]').count()).toBe(0);
      await alice.page.getByTestId('disconnected-banner').waitFor({ timeout: 90_000 });

      await product.server.boot();
      await alice.page.getByTestId('reconnect-button').click();
      await bob.page.getByTestId('reconnect-button').click();
      await messageWith(alice.page, 'Typed while away').waitFor({ timeout: 30_000 });
      await expect.poll(() => pending.count(), { timeout: 15_000 }).toBe(0);
      await say(alice.page, 'After the restart');
      for (const page of [alice.page, bob.page]) {
        await messageWith(page, 'After the restart').waitFor({ timeout: 15_000 });
        expect(await messageWith(page, 'Typed while away').count()).toBe(1);
        expect(await page.getByTestId('disconnected-banner').count()).toBe(0);
      }
      // both were there before the restart: nobody is announced as joining
      expect(await Promise.all([alice.page, bob.page].map((page) => joinPills(page).count()))).toEqual(
        joinsBefore,
      );
      await alice.context.close();
      await bob.context.close();
    },
  );
});

import { describe, expect, it } from 'vitest';
import type { WebSocketRoute } from 'playwright-core';
import { productInBrowser } from './block-hooks.js';
import { messageWith, say, twoGuestsInRoom } from './lib/room.js';

/*
 * The outbox in the browser: Bob goes offline, types two messages (each saying 'Will send
 * when connected', no error), reloads the page while his socket still cannot get through, comes back, and both
 * messages arrive once, for him and for Alice.
 */
describe('the outbox across a reload', () => {
  const product = productInBrowser();

  it('keeps messages typed offline through a reload and delivers each once when back', async () => {
    // Bob's WebSockets pass through a switch: while "offline" they are refused as a dead network would
    let offline = false;
    const sockets: WebSocketRoute[] = [];
    const { alice, bob } = await twoGuestsInRoom(product.browser, product.server.url, (person) =>
      person.context.routeWebSocket(/\/xtalk_ws\//, (ws) => {
        if (offline) return void ws.close({ code: 1001, reason: 'offline' }).catch(() => undefined);
        sockets.push(ws);
        ws.connectToServer();
      }),
    );
    await say(alice.page, 'Before the tunnel');
    await messageWith(bob.page, 'Before the tunnel').waitFor();

    offline = true;
    await bob.context.setOffline(true);
    for (const ws of sockets.splice(0)) await ws.close({ code: 1001, reason: 'offline' }).catch(() => 0);
    await bob.page.getByTestId('reconnecting-banner').waitFor();

    // typing works while reconnecting; the messages wait, shown as sending
    await say(bob.page, 'Typed offline, one');
    await bob.page.getByText('Will send when connected').first().waitFor();
    expect(await bob.page.getByText('Not connected.').count()).toBe(0);
    await say(bob.page, 'Typed offline, two');
    const pending = bob.page.getByTestId('pending-message');
    await expect.poll(() => pending.count()).toBe(2);
    expect(await pending.first().getAttribute('data-status')).toBe('sending');
    // a short message keeps to one line: the bubble's width comes from the list, not from its own text
    const lines = await pending
      .first()
      .locator('p')
      .evaluate((bubble) => {
        const style = getComputedStyle(bubble);
        const text =
          bubble.getBoundingClientRect().height -
          parseFloat(style.paddingTop) -
          parseFloat(style.paddingBottom);
        return Math.round(text / parseFloat(style.lineHeight));
      });
    expect(lines).toBe(1);

    // a reload while the socket still cannot get through: the outbox survives it
    await bob.context.setOffline(false);
    await bob.page.reload();
    await bob.page.getByTestId('reconnecting-banner').waitFor();
    await expect.poll(() => pending.count()).toBe(2);
    expect(await pending.allTextContents()).toEqual([
      expect.stringContaining('Typed offline, two'),
      expect.stringContaining('Typed offline, one'),
    ]);

    // back online: both go out once, in order, and leave the outbox
    offline = false;
    await messageWith(alice.page, 'Typed offline, one').waitFor({ timeout: 15_000 });
    await messageWith(alice.page, 'Typed offline, two').waitFor();
    await expect.poll(() => pending.count(), { timeout: 15_000 }).toBe(0);
    await say(alice.page, 'Welcome back');
    for (const page of [alice.page, bob.page]) {
      await messageWith(page, 'Welcome back').waitFor();
      expect(await messageWith(page, 'Typed offline, one').count()).toBe(1);
      expect(await messageWith(page, 'Typed offline, two').count()).toBe(1);
    }
    // newest first: two above one
    const originals = await alice.page.getByTestId('original').allTextContents();
    expect(originals.indexOf('Typed offline, two')).toBeLessThan(originals.indexOf('Typed offline, one'));

    // stored once: a fresh page gets each once from the server
    await alice.page.reload();
    await messageWith(alice.page, 'Welcome back').waitFor();
    expect(await messageWith(alice.page, 'Typed offline, one').count()).toBe(1);
    expect(await messageWith(alice.page, 'Typed offline, two').count()).toBe(1);
  });
});

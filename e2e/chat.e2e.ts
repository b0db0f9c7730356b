import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';
import { enterAsGuest, newPerson } from './lib/people.js';
import { messageWith, roomIdOf, say } from './lib/room.js';

/*
 * Chat, the whole path: two people enter as guests, one creates a room and invites the other by link,
 * they chat both ways, see each other come and go, and survive a server restart.
 */
describe('guests chatting in a room', () => {
  const product = productInBrowser();

  it('invite by link, chat both ways, JOIN/LEAVE, and a restart loses nothing', async () => {
    const alice = await newPerson(product.browser, product.server.url);
    await enterAsGuest(alice.page, '/');
    const roomId = await roomIdOf(alice.page);
    expect(roomId).toMatch(/^[A-Z0-9]{7}$/);
    await expect.poll(() => alice.page.getByTestId('room-id').textContent()).toContain(roomId);
    await expect.poll(() => alice.page.getByText('Start chatting by tapping the mic!').count()).toBe(1);

    // the invite dialog carries the room's share link
    await alice.page.getByTestId('invite-button').click();
    const link = await alice.page.getByTestId('share-link').inputValue();
    expect(link).toBe(`${product.server.url}/translate?r=${roomId}`);
    await alice.page.keyboard.press('Escape');

    // Bob opens the link: guest entry first, then straight into Alice's room
    const bob = await newPerson(product.browser, product.server.url);
    await enterAsGuest(bob.page, link);
    expect(await roomIdOf(bob.page)).toBe(roomId);
    await alice.page.getByTestId('system-pill').filter({ hasText: 'has joined the chat' }).waitFor();

    await say(alice.page, 'Hello Bob, welcome!');
    await messageWith(bob.page, 'Hello Bob, welcome!').waitFor();
    await say(bob.page, 'こんにちは、アリス');
    await messageWith(alice.page, 'こんにちは、アリス').waitFor();
    await expect.poll(() => messageWith(alice.page, 'Hello Bob, welcome!').textContent()).toContain('(You)');

    // newest at the top
    const firstAtAlice = alice.page.getByTestId('message').first().getByTestId('original');
    expect(await firstAtAlice.textContent()).toBe('こんにちは、アリス');

    // restart the server: both get back in (automatically or by tapping), history intact
    await product.server.restart();
    for (const person of [alice, bob]) {
      const page = person.page;
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const reconnect = page.getByTestId('reconnect-button');
        if (await reconnect.isVisible().catch(() => false)) await reconnect.click().catch(() => undefined);
        const ready =
          (await page.getByTestId('connecting-overlay').count()) === 0 &&
          (await page.getByTestId('reconnect-button').count()) === 0 &&
          (await messageWith(page, 'Hello Bob, welcome!').count()) === 1;
        if (ready) break;
        await page.waitForTimeout(250);
      }
      await messageWith(page, 'Hello Bob, welcome!').waitFor({ timeout: 1000 });
      await messageWith(page, 'こんにちは、アリス').waitFor({ timeout: 1000 });
    }
    await say(alice.page, 'Still here after the restart');
    await messageWith(bob.page, 'Still here after the restart').waitFor({ timeout: 15_000 });
    await say(bob.page, 'Me too');
    await messageWith(alice.page, 'Me too').waitFor({ timeout: 15_000 });

    // Bob leaves: Alice sees it
    await bob.context.close();
    await alice.page
      .getByTestId('system-pill')
      .filter({ hasText: 'left the chat' })
      .waitFor({ timeout: 15_000 });
    await alice.context.close();
  });

  it('shows the not-found and error pages', async () => {
    const { context, page } = await newPerson(product.browser, product.server.url);
    await page.goto('/no/such/page');
    await page.getByText('Oops! Page Not Found.').waitFor();
    await page.getByText('Go back home').waitFor();
    await page.goto('/error?message=Something%20broke');
    await page.getByText('Something broke').waitFor();
    await page.goto('/error');
    await page.getByText('Unknown error occurred').waitFor();
    await context.close();
  });
});

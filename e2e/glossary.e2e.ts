import { describe, expect, it } from 'vitest';
import { productWithGoogle } from './block-hooks.js';
import { enterAsGuest, newPerson } from './lib/people.js';
import { messageWith, roomIdOf, say } from './lib/room.js';
import { signInFromRoom } from './lib/sign-in.js';

/*
 * The room glossary and "Catch me up" in Chromium against the built server (fake engine, which writes
 * the renderings it is given and a summary of what it is given): a signed-in member adds an entry in the
 * glossary dialog and the other person's next translation uses it; a late joiner is offered "Catch me up"
 * and watches the summary stream into its panel.
 */

describe('the room glossary and Catch me up in the browser', () => {
  const product = productWithGoogle(
    { sub: 'e2e-glossary', name: 'Kiyoshi', email: 'kiyoshi@example.com' },
    {
      // the summary streams word by word, slowly enough to watch it grow
      FAKE_AI_CHUNK_DELAY_MS: '40',
      WS_CHAT_PER_SECOND: '50',
      WS_CHAT_BURST: '50',
    },
  );

  it("adds an entry in the glossary dialog; the other person's next translation uses it", async () => {
    const alice = await newPerson(product.browser, product.server.url);
    await enterAsGuest(alice.page);
    await signInFromRoom(alice.page);
    const roomId = await roomIdOf(alice.page);
    const bob = await newPerson(product.browser, product.server.url, { language: 'ja' });
    await enterAsGuest(bob.page, `/translate?r=${roomId}`);

    await alice.page.getByTestId('settings-menu').click();
    await alice.page.getByTestId('menu-glossary').click();
    const dialog = alice.page.getByTestId('glossary-dialog');
    await dialog.getByText('No entries yet.').waitFor({ timeout: 20_000 });
    await dialog.getByTestId('glossary-term').fill('Kite');
    await dialog.getByTestId('glossary-rendering-ja').fill('カイト');
    await dialog.getByTestId('glossary-submit').click();
    await dialog.getByTestId('glossary-entries').getByText('Kite', { exact: true }).waitFor();
    // Bob is told, in his interface language
    await bob.page.getByText('ルームの用語集が更新されました').waitFor({ timeout: 20_000 });
    await alice.page.keyboard.press('Escape');

    const text = 'The Kite team ships today';
    await say(alice.page, text);
    const translation = messageWith(bob.page, text).getByTestId('translation').first();
    await expect
      .poll(() => translation.textContent(), { timeout: 20_000 })
      .toContain('[ja] The カイト team ships today');

    // Bob, a guest, reads the glossary but cannot change it
    await bob.page.getByTestId('settings-menu').click();
    await bob.page.getByTestId('menu-glossary').click();
    const atBob = bob.page.getByTestId('glossary-dialog');
    await atBob
      .getByTestId('glossary-entries')
      .getByText('Kite', { exact: true })
      .waitFor({ timeout: 20_000 });
    expect(await atBob.getByTestId('glossary-add').count()).toBe(0);

    await alice.context.close();
    await bob.context.close();
  });

  it('offers a late joiner Catch me up and streams the summary into its panel', async () => {
    const alice = await newPerson(product.browser, product.server.url);
    await enterAsGuest(alice.page);
    const roomId = await roomIdOf(alice.page);
    const texts = Array.from({ length: 20 }, (_, i) => `update ${i + 1} on the launch plan`);
    for (const text of texts) await say(alice.page, text);
    await messageWith(alice.page, texts.at(-1)!).waitFor({ timeout: 20_000 });

    const carol = await newPerson(product.browser, product.server.url);
    await enterAsGuest(carol.page, `/translate?r=${roomId}`);
    const offer = carol.page.getByTestId('catch-up-offer');
    await offer.getByText('You missed 20 messages').waitFor({ timeout: 20_000 });
    await offer.getByTestId('catch-up').click();

    const summary = carol.page.getByTestId('catch-up-text');
    const seen: string[] = [];
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const current = (await summary.count()) > 0 ? ((await summary.textContent()) ?? '') : '';
      if (current && seen.at(-1) !== current) seen.push(current);
      if ((await summary.getAttribute('data-done')) === 'true') break;
      await carol.page.waitForTimeout(50);
    }
    const full = seen.at(-1)!;
    expect(full).toMatch(/^\[en\] summary of 20 messages: /);
    expect(full).toContain('update 1 on the launch plan');
    expect(full).toContain('update 20 on the launch plan');
    // it grew piece by piece
    const partial = seen.filter((state) => state !== full && state.startsWith('[en]'));
    expect(partial.length).toBeGreaterThanOrEqual(2);
    // only Carol asked: Alice sees no summary
    expect(await alice.page.getByTestId('catch-up-panel').count()).toBe(0);

    await carol.page.getByTestId('catch-up-close').click();
    await carol.page.getByTestId('catch-up-panel').waitFor({ state: 'detached' });

    await alice.context.close();
    await carol.context.close();
  });
});

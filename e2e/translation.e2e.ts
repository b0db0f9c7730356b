import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';
import { messageWith, say, twoGuestsInRoom } from './lib/room.js';

/* Translation in the browser: a translation appears piece by piece, and a hint sits behind its toggle. */
describe('translations in the browser', () => {
  // the fake engine streams word by word, slowly enough to watch
  const product = productInBrowser({ FAKE_AI_CHUNK_DELAY_MS: '250' });

  it('streams the translation into the listener’s view and offers the hint on others’ messages', async () => {
    const { alice, bob } = await twoGuestsInRoom(product.browser, product.server.url);

    const text = 'break a leg tonight, it is an idiom for good luck';
    await say(alice.page, text);
    const atBob = messageWith(bob.page, text);
    await atBob.waitFor();
    const translation = atBob.getByTestId('translation');
    const full = `[ja] ${text}`;

    // sample the translation while it streams: it grows through several partial states to the full text
    const seen: string[] = [];
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const current =
        (await translation.count()) > 0 ? ((await translation.first().textContent()) ?? '') : '';
      if (current && seen.at(-1) !== current) seen.push(current);
      if (current.includes(full)) break;
      await bob.page.waitForTimeout(50);
    }
    expect(seen.at(-1)).toContain(full);
    const partial = seen.filter((state) => !state.includes(full));
    expect(partial.length).toBeGreaterThanOrEqual(2);
    // each state extends the previous one
    for (let i = 1; i < partial.length; i++)
      expect(partial[i]!.length).toBeGreaterThan(partial[i - 1]!.length);

    // the translation sits above the original
    const boxes = await Promise.all([
      translation.first().boundingBox(),
      atBob.getByTestId('original').boundingBox(),
    ]);
    expect(boxes[0]!.y).toBeLessThan(boxes[1]!.y);

    // the hint: a toggle on Bob's side (someone else's message), none on Alice's own
    const toggle = atBob.getByTestId('hint-toggle');
    await toggle.waitFor({ timeout: 20_000 });
    expect(await atBob.getByTestId('note').count()).toBe(0);
    await toggle.click();
    await expect.poll(() => atBob.getByTestId('note').textContent()).toMatch(/idiom/);
    await messageWith(alice.page, text).getByTestId('translation').first().waitFor();
    expect(await messageWith(alice.page, text).getByTestId('hint-toggle').count()).toBe(0);

    await alice.context.close();
    await bob.context.close();
  });

  it('tells each person of a failed translation in their own interface language, the message shown as written', async () => {
    const { alice, bob } = await twoGuestsInRoom(product.browser, product.server.url, (person) =>
      person.context.addInitScript(() => localStorage.setItem('lang', 'ja')),
    );
    // the fake engine fails this text on every attempt; the room gets one notice, worded by its kind
    const text = 'this one will !fail to translate';
    await say(alice.page, text);
    await bob.page.getByText('日本語への翻訳に失敗しました。メッセージは原文のまま表示されます。').waitFor({
      timeout: 20_000,
    });
    await alice.page
      .getByText('Translation into Japanese failed. The message is shown as written.')
      .waitFor({ timeout: 20_000 });
    await messageWith(bob.page, text).waitFor();
    expect(await bob.page.getByText('サーバーからのお知らせ').count()).toBe(0);
    // the chunks that streamed before the engine gave up are gone: the message shows as written
    for (const person of [alice, bob])
      await expect.poll(() => messageWith(person.page, text).getByTestId('translation').count()).toBe(0);

    await alice.context.close();
    await bob.context.close();
  });

  it('says an engine failure once per message, without the hint that failed with it', async () => {
    const { alice, bob } = await twoGuestsInRoom(product.browser, product.server.url);
    // the hint fails as well as the translation, as when the engine is down
    const text = 'everything will !failall here';
    await say(alice.page, text);
    // the author's mark follows the notice on the same socket; a hint's failure told after it would be
    // left out of the toast anyway
    await messageWith(alice.page, text).getByTestId('translation-failed').waitFor({ timeout: 20_000 });
    const failure = alice.page.locator('[data-sonner-toast]');
    expect(await failure.textContent()).toBe(
      'Translation into Japanese failed. The message is shown as written.',
    );
    expect(await failure.count()).toBe(1);
    await bob.page
      .locator('[data-sonner-toast]')
      .filter({ hasText: 'Translation into Japanese failed.' })
      .waitFor({ timeout: 20_000 });
    await alice.context.close();
    await bob.context.close();
  });
});

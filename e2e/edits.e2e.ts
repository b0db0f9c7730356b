import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';
import { messageWith, say, twoGuestsInRoom } from './lib/room.js';

/* Corrections: the author edits a word and the listener's translation follows. */
describe('corrections in the browser', () => {
  const product = productInBrowser({ FAKE_AI_CHUNK_DELAY_MS: '30' });

  it('lets the author fix a word from the keyboard; the listener sees the new text, translation and mark', async () => {
    const { alice, bob } = await twoGuestsInRoom(product.browser, product.server.url);
    const text = 'I will bring the red book tomorrow';
    await say(alice.page, text);
    const atBob = messageWith(bob.page, text);
    await atBob.getByTestId('translation').getByText(`[ja] ${text}`).waitFor({ timeout: 20_000 });
    // only the author is offered the edit
    expect(await atBob.getByTestId('edit-button').count()).toBe(0);

    const mine = messageWith(alice.page, text);
    const edit = mine.getByRole('button', { name: 'Edit your message' });
    await edit.focus();
    await alice.page.keyboard.press('Enter');
    const field = alice.page.getByRole('textbox', { name: 'Edit your message' });
    await expect.poll(() => field.evaluate((element) => element === document.activeElement)).toBe(true);
    const fixed = 'I will bring the blue book tomorrow';
    await field.fill(fixed);
    await alice.page.keyboard.press('Enter');

    const edited = messageWith(bob.page, fixed);
    await edited.getByTestId('translation').getByText(`[ja] ${fixed}`).waitFor({ timeout: 20_000 });
    await edited.getByTestId('edited-mark').waitFor();
    expect(await messageWith(bob.page, text).count()).toBe(0);
    expect(await bob.page.getByText(`[ja] ${text}`).count()).toBe(0);
    // the author's view follows too, and the focus is back on the Edit button
    await messageWith(alice.page, fixed).getByTestId('edited-mark').waitFor();
    await expect
      .poll(() => alice.page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('edit-button');

    // in Japanese the same control is named in Japanese
    await alice.page.getByTestId('language-switch').getByText('JA').click();
    await messageWith(alice.page, fixed).getByRole('button', { name: 'メッセージを編集' }).waitFor();

    // a reload replays the stored, corrected text
    await bob.page.reload();
    await messageWith(bob.page, fixed).getByTestId('edited-mark').waitFor({ timeout: 20_000 });

    await alice.context.close();
    await bob.context.close();
  });
});

/* More than two languages: the listener picks French from the server's list. */
describe('a listening language beyond EN/JA', () => {
  const product = productInBrowser({ LANGUAGES: 'en,ja,fr' });

  it('offers the server’s languages and shows the listener’s translation first', async () => {
    const { alice, bob } = await twoGuestsInRoom(product.browser, product.server.url);
    const picker = bob.page.getByRole('combobox', { name: 'Listening language' });
    await picker.waitFor({ timeout: 20_000 });
    await picker.selectOption('fr');
    const text = 'good morning everyone';
    await say(alice.page, text);
    const atBob = messageWith(bob.page, text);
    await atBob.getByTestId('translation').getByText(`[fr] ${text}`).waitFor({ timeout: 20_000 });
    await atBob.getByTestId('translation').getByText(`[ja] ${text}`).waitFor({ timeout: 20_000 });
    expect(await atBob.getByTestId('translation').first().getAttribute('data-lang')).toBe('fr');
    // the pick is kept: after a reload the picker still says French
    await bob.page.reload();
    await bob.page.getByRole('combobox', { name: 'Listening language' }).waitFor({ timeout: 20_000 });
    expect(await bob.page.getByTestId('listening-language').inputValue()).toBe('fr');

    await alice.context.close();
    await bob.context.close();
  });
});

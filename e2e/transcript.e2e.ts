import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { productInBrowser } from './block-hooks.js';
import { enterAsGuest } from './lib/people.js';
import { messageWith, say, twoGuestsInRoom } from './lib/room.js';

/*
 * The transcript menu (the header's copy, email and download) and the landscape view, in Chromium:
 * two guests chat both ways, one downloads the chat as markdown and copies it; a phone held sideways
 * shows the latest message's translation large.
 */

/** Wait until the message's translation is complete, so the transcript has it. */
async function translated(page: Page, text: string): Promise<void> {
  await messageWith(page, text).locator('[data-testid="translation"][data-complete]').first().waitFor();
}

describe('chat transcript', () => {
  const product = productInBrowser();

  it('downloads and copies the chat as markdown; a phone held sideways shows the latest translation', async () => {
    const { alice, bob, roomId } = await twoGuestsInRoom(product.browser, product.server.url);

    const english = 'Good morning, shall we start?';
    const japanese = 'おはようございます、始めましょう';
    await say(alice.page, english);
    await translated(alice.page, english);
    await bob.page.getByTestId('language-switch').locator('[data-value="ja"]').click();
    await say(bob.page, japanese);
    await translated(alice.page, japanese);

    // Download as Markdown
    await alice.page.getByTestId('transcript-menu').click();
    const [download] = await Promise.all([
      alice.page.waitForEvent('download'),
      alice.page.getByTestId('transcript-download').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^xtalk-${roomId}-\\d{13}\\.md$`));
    const markdown = await readFile((await download.path())!, 'utf8');

    const lines = markdown.split('\n');
    expect(lines[0]).toBe('# Transcript for XTalk Chat');
    expect(markdown).toContain(`**Room:** ${roomId}`);
    expect(markdown).toContain(`[Open Chat](${product.server.url}/translate?r=${roomId})`);
    // a date heading (en-US, full date) above the lines; two only if the test straddles midnight
    const headings = lines.filter((line) => line.startsWith('## '));
    expect(headings.length === 1 || headings.length === 2).toBe(true);
    expect(headings[0]).toMatch(/^## [A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}$/);
    // lines: 12-hour time, generated name, quoted original, translation (markdown-escaped); oldest first;
    // JOIN/LEAVE are not chat lines
    const chat = lines.filter((line) => line.startsWith('- '));
    expect(chat).toHaveLength(2);
    const prefix = /^- \*\*\d{1,2}:\d{2} [AP]M\*\* [A-Z][A-Za-z]+: /;
    expect(chat[0]).toMatch(prefix);
    expect(chat[0]!.replace(prefix, '')).toBe(`"${english}" → JA: "\\[ja\\] ${english}"`);
    expect(chat[1]).toMatch(prefix);
    expect(chat[1]!.replace(prefix, '')).toBe(`"${japanese}" → EN: "\\[en\\] ${japanese}"`);
    expect(markdown.indexOf(headings[0]!)).toBeLessThan(markdown.indexOf(chat[0]!));
    expect(markdown).not.toContain('joined');

    // Copy Chat to Clipboard: the same document, and the product's toast
    await alice.page.getByTestId('transcript-menu').click();
    await alice.page.getByTestId('transcript-copy').click();
    await alice.page.getByText('Chat transcript has been copied to clipboard!').waitFor();
    const copied = await alice.page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(markdown);

    // Send via Email is offered (its mailto: is checked in the unit tests)
    await alice.page.getByTestId('transcript-menu').click();
    expect(await alice.page.getByTestId('transcript-email').textContent()).toBe('Send via Email');
    await alice.page.keyboard.press('Escape');

    // A touch phone in landscape: the latest message (Bob's Japanese) large in English, original below
    const phone = await product.browser.newContext({
      baseURL: product.server.url,
      viewport: { width: 844, height: 390 },
      hasTouch: true,
      isMobile: true,
    });
    await phone.grantPermissions(['microphone'], { origin: product.server.url });
    const phonePage = await phone.newPage();
    await enterAsGuest(phonePage, `/translate?r=${roomId}`);
    await phonePage.getByTestId('landscape-view').waitFor();
    await expect
      .poll(() => phonePage.getByTestId('landscape-primary').textContent())
      .toBe(`[en] ${japanese}`);
    expect(await phonePage.getByTestId('landscape-original').textContent()).toBe(japanese);
    // turned upright, the chat comes back
    await phonePage.setViewportSize({ width: 390, height: 844 });
    await phonePage.getByTestId('landscape-view').waitFor({ state: 'detached' });

    await phone.close();
    await alice.context.close();
    await bob.context.close();
  });
});

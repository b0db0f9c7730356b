import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';
import { enterAsGuest, newPerson } from './lib/people.js';
import { messageWith, say } from './lib/room.js';

/*
 * Accessibility: axe finds no serious or critical violation on any screen, in either language
 * and theme (the pages, the room with messages, every dialog and menu, a bad room link).
 */

/** axe reads colours as painted, so a toast still fading in reads as low contrast: let it finish first. */
async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
}

async function seriousViolations(page: Page, what: string): Promise<string[]> {
  await animationsSettled(page);
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${what}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('accessibility (axe)', () => {
  const product = productInBrowser();

  for (const language of ['en', 'ja'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      it(`has no serious or critical violations (${language}, ${theme})`, async () => {
        const found: string[] = [];
        const person = await newPerson(product.browser, product.server.url, { language, tutorial: true });
        const page = person.page;
        await page.addInitScript((t) => localStorage.setItem('ui-theme', t), theme);
        const check = async (what: string) => found.push(...(await seriousViolations(page, what)));

        await page.goto('/login');
        await page.getByTestId('login').waitFor();
        await check('/login');
        await page.goto('/nowhere');
        await page.getByTestId('not-found').waitFor();
        await check('404');

        await enterAsGuest(page);
        const other = await newPerson(product.browser, product.server.url);
        await enterAsGuest(other.page, page.url());
        await say(other.page, 'Hello there');
        await say(page, 'Hi!');
        await page.getByTestId('message').nth(1).waitFor();
        await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 10_000 });
        await check('room');

        // a failed translation's mark with the author's Try again, its reason open (the fake engine
        // fails this text on every attempt)
        const failedText = 'This will !fail';
        await say(page, failedText);
        const failed = messageWith(page, failedText);
        await failed.getByTestId('retranslate').waitFor({ timeout: 30_000 });
        await failed.getByTestId('translation-failed').locator('button[aria-expanded]').click();
        await failed.getByRole('note').waitFor();
        await check('failure mark');

        const dialogs: Array<[string, () => Promise<void>]> = [
          ['invite', () => page.getByTestId('invite-button').click()],
          ['join', () => openFromMenu(page, 1)],
          ['past rooms', () => openFromMenu(page, 2)],
          ['glossary', () => openFromMenu(page, 4)],
          ['profile', () => openFromMenu(page, 9)],
          ['microphone', () => openFromMenu(page, 10)],
        ];
        for (const [name, open] of dialogs) {
          await open();
          await page.getByRole('dialog').waitFor();
          await check(name);
          await page.keyboard.press('Escape');
          await page.getByRole('dialog').waitFor({ state: 'detached' });
        }
        await page.getByTestId('settings-menu').click();
        await page.getByRole('menu').waitFor();
        await check('settings menu');
        await page.keyboard.press('Escape');

        await page.goto('/translate?r=ZZZZZZ9');
        await page.getByTestId('room-missing').waitFor();
        await check('missing room');

        expect(found.join('\n')).toBe('');
        await person.context.close();
        await other.context.close();
      });
    }
  }
});

async function openFromMenu(page: Page, index: number): Promise<void> {
  await page.getByTestId('settings-menu').click();
  await page.getByRole('menuitem').nth(index).click();
}

import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { productInEngine } from '../engines/block.js';
import { DESKTOP, ENGINES, type EnginePage } from '../engines/index.js';
import { absent, enterAsGuest, messageShown, newPerson, say, waitUntil } from '../engines/people.js';

/*
 * The room screen as each engine draws it: axe finds no serious or critical violation in light or dark,
 * on a desktop and on a phone, and each is pictured (into e2e/artifacts, or `SCREENSHOTS_DIR`:
 * docs/screenshots holds the ones last looked at).
 */

/** A phone's viewport; MiniBrowser's window cannot be narrower than its toolbar, so WebKit's is wider. */
const PHONE = { width: 390, height: 844 };
const shots = resolve(process.env.SCREENSHOTS_DIR ?? join(import.meta.dirname, '../artifacts'));

async function seriousViolations(page: EnginePage, what: string): Promise<string[]> {
  // axe reads colours as painted: a toast still fading reads as low contrast. A toast under the pointer
  // (where the last click left it) stays, settled, and is checked as it is.
  await waitUntil(
    page,
    'no toast',
    () => document.querySelector('[data-sonner-toast]') === null,
    null,
    6_000,
  ).catch(() => undefined);
  await waitUntil(
    page,
    'animations done',
    () =>
      document
        .getAnimations()
        .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
    null,
  );
  if (!(await page.evaluate(() => 'axe' in window, null))) await page.inject(axe.source);
  const found = await page.evaluate(async () => {
    const { axe: run } = window as unknown as { axe: typeof axe };
    const result = await run.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, null);
  return found.map((line) => `${page.engine} ${what}: ${line}`);
}

describe.each(ENGINES)('the room screen in %s', (name) => {
  const product = productInEngine(name);

  it('has no serious or critical axe violation in light and dark, and is pictured at both sizes', async () => {
    mkdirSync(shots, { recursive: true });
    const [aliceLine, bobLine] = product.lines;
    const alice = await newPerson(product.engine, aliceLine!.url, { viewport: DESKTOP, theme: 'light' });
    const roomId = await enterAsGuest(alice);
    const bob = await newPerson(product.engine, bobLine!.url, {
      viewport: PHONE,
      language: 'ja',
      theme: 'light',
    });
    await enterAsGuest(bob, `/translate?r=${roomId}`);
    await say(bob, 'はじめまして！どこから来ましたか？');
    await say(alice, 'Nice to meet you! I am from Lisbon.');
    for (const page of [alice, bob]) {
      await messageShown(page, 'Nice to meet you! I am from Lisbon.');
      await waitUntil(
        page,
        'the translations',
        () => document.querySelectorAll('[data-testid="translation"]').length >= 2,
        null,
      );
    }

    const found: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      for (const [page, size] of [
        [alice, 'desktop'],
        [bob, 'phone'],
      ] as const) {
        if (theme === 'dark') {
          await page.evaluate(() => localStorage.setItem('ui-theme', 'dark'), null);
          await page.reload();
          await messageShown(page, 'Nice to meet you! I am from Lisbon.');
          await waitUntil(page, 'connected', absent, '[data-testid="connecting-overlay"]', 30_000);
          expect(await page.evaluate(() => document.documentElement.classList.contains('dark'), null)).toBe(
            true,
          );
        }
        found.push(...(await seriousViolations(page, `${size} ${theme}`)));
        await page.screenshot(join(shots, `room-${name}-${size}-${theme}.png`));
      }
    }
    expect(found.join('\n')).toBe('');
    await alice.close();
    await bob.close();
  }, 300_000);
});

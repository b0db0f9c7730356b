import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../e2e/lib/browser.js';
import { enterAsGuest, newPerson } from '../e2e/lib/people.js';
import { ProductServer } from '../e2e/lib/product-server.js';
import { say } from '../e2e/lib/room.js';

/*
 * `npm run screenshots`: the room screen in both languages and themes, on a desktop and a phone, into
 * docs/screenshots/ (built app, fake AI engine so translations show). Rerun after UI changes and look.
 */

const out = join(import.meta.dirname, '../docs/screenshots');
mkdirSync(out, { recursive: true });

const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
  /** The smallest phone the issue names: light theme only. */
  'small-phone': { width: 360, height: 640 },
} as const;

const server = await ProductServer.start({ AI_PROVIDER: 'fake' });
const browser = await launchBrowser();
try {
  for (const language of ['en', 'ja'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      for (const [device, viewport] of Object.entries(viewports)) {
        if (device === 'small-phone' && theme === 'dark') continue;
        const alice = await newPerson(browser, server.url, { viewport, language, tutorial: true });
        await alice.page.addInitScript((t) => localStorage.setItem('ui-theme', t), theme);
        await enterAsGuest(alice.page);
        const room = new URL(alice.page.url()).searchParams.get('r')!;
        const bob = await newPerson(browser, server.url, { language: language === 'en' ? 'ja' : 'en' });
        await enterAsGuest(bob.page, `/translate?r=${room}`);
        await say(
          bob.page,
          language === 'en' ? 'はじめまして！どこから来ましたか？' : 'Nice to meet you! Where are you from?',
        );
        await say(alice.page, language === 'en' ? 'Hi! I am from Osaka.' : 'こんにちは！大阪から来ました。');
        await alice.page.waitForTimeout(1500); // translations stream in and the toasts go
        await shoot(alice.page, `room-${device}-${language}-${theme}`);
        if (device === 'phone' && theme === 'light') {
          await alice.page.getByTestId('invite-button').click();
          await alice.page.getByTestId('share-qr').waitFor();
          await shoot(alice.page, `invite-${device}-${language}`);
          await alice.page.keyboard.press('Escape');
        }
        if (device === 'desktop' && theme === 'dark') {
          await alice.page.getByTestId('settings-menu').click();
          await alice.page.getByRole('menuitem').first().waitFor();
          await shoot(alice.page, `menu-${device}-${language}-${theme}`);
          await alice.page.keyboard.press('Escape');
        }
        await alice.context.close();
        await bob.context.close();
      }
    }
  }
} finally {
  await browser.close();
  await server.dispose();
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: join(out, `${name}.png`) });
  console.log(`docs/screenshots/${name}.png`);
}

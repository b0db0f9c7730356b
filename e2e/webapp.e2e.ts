import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FIRST_LOAD_BUDGET_BYTES } from '../apps/web/build/first-load-budget.js';
import { productInBrowser } from './block-hooks.js';
import { enterAsGuest, newPerson } from './lib/people.js';
import { messageWith, roomIdOf, say, twoGuestsInRoom } from './lib/room.js';

/*
 * The web app as people use it: dialogs that keep their focus while frames arrive, a bad room link that
 * says so, toasts clear of the header, the newest message and the composer, XTalkChan's tutorial, pasted room codes and links, the first-load budget, a Japanese first paint.
 */
describe('web app', () => {
  const product = productInBrowser();

  const focusedTestId = (page: Page) =>
    page.evaluate(
      () => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName,
    );

  it('keeps the focus in an open dialog while messages arrive, traps Tab, and menus take arrow keys', async () => {
    const { alice, bob } = await twoGuestsInRoom(product.browser, product.server.url);
    await alice.page.getByTestId('settings-menu').click();
    await alice.page.getByRole('menuitem', { name: 'Join A Room' }).click();
    const input = alice.page.getByTestId('join-room-input');
    await expect.poll(() => focusedTestId(alice.page)).toBe('join-room-input');

    // Type one character, let a message arrive (a frame re-renders the room screen), type the next
    for (const [i, char] of [...'ABC2345'].entries()) {
      await alice.page.keyboard.type(char);
      await say(bob.page, `frame ${i}`);
      await messageWith(alice.page, `frame ${i}`).waitFor();
      expect(await focusedTestId(alice.page)).toBe('join-room-input');
    }
    expect(await input.inputValue()).toBe('ABC2345');

    // Tab never leaves the dialog
    const dialog = alice.page.getByTestId('join-room-dialog');
    for (let i = 0; i < 6; i++) {
      await alice.page.keyboard.press('Tab');
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await alice.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // the settings menu: Enter opens it, arrows move between items, Escape gives the focus back
    await alice.page.getByTestId('settings-menu').focus();
    await alice.page.keyboard.press('Enter');
    const items = alice.page.getByRole('menuitem');
    await items.first().waitFor();
    await expect
      .poll(() => alice.page.evaluate(() => document.activeElement?.textContent))
      .toBe('Create A Room');
    await alice.page.keyboard.press('ArrowDown');
    await expect
      .poll(() => alice.page.evaluate(() => document.activeElement?.textContent))
      .toBe('Join A Room');
    await alice.page.keyboard.press('Escape');
    await expect.poll(() => focusedTestId(alice.page)).toBe('settings-menu');
    await alice.context.close();
    await bob.context.close();
  });

  it('a link to a room that does not exist says so and creates nothing until asked', async () => {
    const carol = await newPerson(product.browser, product.server.url, { language: 'ja' });
    await carol.page.goto('/translate?r=ZZZZZZ9');
    await carol.page.getByTestId('mic-permission').click({ timeout: 30_000 });
    const missing = carol.page.getByTestId('room-missing');
    await missing.waitFor({ timeout: 30_000 });
    // said plainly, in the interface language (the server's English never shows)
    expect(await missing.textContent()).toContain('ルーム ZZZZZZ9 は存在しません');
    expect(await missing.textContent()).not.toContain('does not exist');
    // still on the link, in no room: nothing was created behind the person's back
    expect(await roomIdOf(carol.page)).toBe('ZZZZZZ9');
    expect(await carol.page.getByTestId('room-id').textContent()).toBe('·······');
    expect(await carol.page.evaluate(() => localStorage.getItem('rid'))).toBeNull();
    expect(await carol.page.getByTestId('message-list').count()).toBe(0);
    // nothing to send to, invite to or record into: the composer, the microphone and Invite are off
    expect(await carol.page.getByTestId('chat-input').isDisabled()).toBe(true);
    expect(await carol.page.getByTestId('send-button').isDisabled()).toBe(true);
    expect(await carol.page.getByTestId('mic-button').isDisabled()).toBe(true);
    expect(await carol.page.getByTestId('invite-button').isDisabled()).toBe(true);

    // the two ways on: join another (the dialog), or create one
    await carol.page.getByTestId('room-missing-join').click();
    await carol.page.getByTestId('join-room-dialog').waitFor();
    await carol.page.keyboard.press('Escape');
    await carol.page.getByTestId('room-missing-create').click();
    await carol.page.waitForURL((url) => /^[A-Z0-9]{7}$/.test(url.searchParams.get('r') ?? ''));
    await carol.page.getByTestId('message-list').waitFor();
    expect(await roomIdOf(carol.page)).not.toBe('ZZZZZZ9');
    await carol.page.getByTestId('invite-button').waitFor();
    expect(await carol.page.getByTestId('chat-input').isDisabled()).toBe(false);
    expect(await carol.page.getByTestId('mic-button').isDisabled()).toBe(false);
    await carol.context.close();
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 360, height: 740 },
  ]) {
    it(`keeps toasts off the header, the newest message and the composer (${viewport.width}x${viewport.height})`, async () => {
      const dave = await newPerson(product.browser, product.server.url, { viewport });
      await enterAsGuest(dave.page);
      await say(dave.page, 'the newest message');
      await messageWith(dave.page, 'the newest message').waitFor();
      // every animation frame from before the toast until it settled: where its visible part is (the
      // toaster clips it at its own bottom edge) and where the things it must not cover are
      await dave.page.evaluate(() => {
        const w = window as unknown as { __overlaps: string[]; __frames: number; __stop: boolean };
        w.__overlaps = [];
        w.__frames = 0;
        w.__stop = false;
        const hit = (a: DOMRect, top: number, bottom: number) =>
          a.width > 0 && Math.min(a.bottom, bottom) - Math.max(a.top, top) > 0.5 && a.left < a.right;
        const tick = () => {
          const header = document.querySelector('header')!.getBoundingClientRect();
          const footer = document.querySelector('footer')!.getBoundingClientRect();
          const newest = document.querySelector('[data-testid="message"]')!.getBoundingClientRect();
          const floor = document.querySelector('[data-sonner-toaster]')?.getBoundingClientRect().bottom;
          for (const toast of Array.from(document.querySelectorAll('[data-sonner-toast]'))) {
            const box = toast.getBoundingClientRect();
            if (Number(getComputedStyle(toast).opacity) === 0 || floor === undefined) continue;
            const top = box.top;
            const bottom = Math.min(box.bottom, floor);
            w.__frames++;
            if (bottom <= top) continue;
            const across = (r: DOMRect) => box.left < r.right && box.right > r.left;
            if (hit(header, top, bottom)) w.__overlaps.push(`header ${top}-${bottom}`);
            if (hit(footer, top, bottom)) w.__overlaps.push(`composer ${top}-${bottom}`);
            if (across(newest) && hit(newest, top, bottom)) w.__overlaps.push(`newest ${top}-${bottom}`);
          }
          if (!w.__stop) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      await dave.page.getByTestId('transcript-menu').click();
      await dave.page.getByRole('menuitem', { name: 'Copy Chat to Clipboard' }).click();
      const toast = dave.page.locator('[data-sonner-toast]').first();
      await toast.waitFor();
      await expect.poll(() => toast.getAttribute('data-mounted')).toBe('true');
      await dave.page.waitForTimeout(600); // the slide-in (0.4 s) is over: the frames above saw all of it
      // and leaving: closed with its button, sampled until it is gone
      await toast.locator('[data-close-button]').click();
      await toast.waitFor({ state: 'detached' });
      const { overlaps, frames } = await dave.page.evaluate(() => {
        const w = window as unknown as { __overlaps: string[]; __frames: number; __stop: boolean };
        w.__stop = true;
        return { overlaps: w.__overlaps, frames: w.__frames };
      });
      expect(frames).toBeGreaterThan(5);
      expect(overlaps).toEqual([]);
      // centred
      await dave.page.getByTestId('transcript-menu').click();
      await dave.page.getByRole('menuitem', { name: 'Copy Chat to Clipboard' }).click();
      await expect.poll(() => toast.getAttribute('data-mounted')).toBe('true');
      await dave.page.waitForTimeout(500);
      const box = (await toast.boundingBox())!;
      expect(Math.abs(box.x - (viewport.width - box.x - box.width))).toBeLessThanOrEqual(2);
      await dave.context.close();
    });
  }

  it("greets a first connection with XTalkChan's tutorial, in the user's language and following a switch, for that user only", async () => {
    const erin = await newPerson(product.browser, product.server.url, { tutorial: true, language: 'ja' });
    await enterAsGuest(erin.page);
    const tutorial = erin.page.locator('[data-tutorial]');
    await expect.poll(() => tutorial.count()).toBe(4);
    expect(await tutorial.first().getByTestId('author').textContent()).toBe('XTalkChan');
    const text = (await tutorial.allTextContents()).join('\n');
    expect(text).toContain('マイク');
    expect(text).toContain('招待');
    expect(text).toContain('ヒント');
    // and follows a switch of the interface language, in place
    await erin.page.getByTestId('language-switch').locator('[data-value="en"]').click();
    await expect.poll(async () => (await tutorial.allTextContents()).join('\n')).toContain('Tap the mic');
    expect(await tutorial.count()).toBe(4);
    expect((await tutorial.allTextContents()).join('\n')).not.toContain('マイク');
    await erin.page.getByTestId('language-switch').locator('[data-value="ja"]').click();
    await expect.poll(async () => (await tutorial.allTextContents()).join('\n')).toContain('マイク');
    // the mascot's name is yellow (hue 48), made readable
    const colour = await tutorial
      .first()
      .getByTestId('author')
      .evaluate((el) => getComputedStyle(el).color);
    expect(colour).toMatch(/^rgb/);

    // someone else in the same room never sees it
    const roomId = await roomIdOf(erin.page);
    const frank = await newPerson(product.browser, product.server.url);
    await enterAsGuest(frank.page, `/translate?r=${roomId}`);
    await say(frank.page, 'hello erin');
    await messageWith(erin.page, 'hello erin').waitFor();
    expect(await frank.page.locator('[data-tutorial]').count()).toBe(0);

    // a first connection to a room that has a chat log gets none either (the tutorial greets an empty room)
    const hana = await newPerson(product.browser, product.server.url, { tutorial: true });
    await enterAsGuest(hana.page, `/translate?r=${roomId}`); // returns once READY is past
    await messageWith(hana.page, 'hello erin').waitFor();
    expect(await hana.page.locator('[data-tutorial]').count()).toBe(0);
    await hana.context.close();

    // and it is a first-connection thing: a reload does not repeat it
    await erin.page.reload();
    await messageWith(erin.page, 'hello erin').waitFor({ timeout: 30_000 });
    expect(await erin.page.locator('[data-tutorial]').count()).toBe(0);
    await erin.context.close();
    await frank.context.close();
  });

  it('joins by a pasted code with spaces and by a pasted full share link', async () => {
    const { alice, bob, roomId } = await twoGuestsInRoom(product.browser, product.server.url);
    // Create A Room asks first (window.confirm), then Bob is in a room of his own
    const createRoom = async () => {
      bob.page.once('dialog', (dialog) => void dialog.accept());
      await bob.page.getByTestId('settings-menu').click();
      await bob.page.getByRole('menuitem', { name: 'Create A Room' }).click();
      await bob.page.waitForURL((url) => {
        const r = url.searchParams.get('r') ?? '';
        return /^[A-Z0-9]{7}$/.test(r) && r !== roomId;
      });
      await bob.page.getByTestId('connecting-overlay').waitFor({ state: 'detached' });
    };
    // Bob goes elsewhere, then pastes Alice's code with a leading space, in lower case
    await createRoom();

    const paste = async (text: string) => {
      await bob.page.getByTestId('settings-menu').click();
      await bob.page.getByRole('menuitem', { name: 'Join A Room' }).click();
      await bob.page.getByTestId('join-room-input').focus();
      await bob.page.keyboard.insertText(text); // one insertion, as a paste
      expect(await bob.page.getByTestId('join-room-input').inputValue()).toBe(roomId);
      await bob.page.getByTestId('join-room-submit').click();
    };
    await paste(` ${roomId.toLowerCase()}`);
    await bob.page.waitForURL((url) => url.searchParams.get('r') === roomId);
    await say(bob.page, 'back by code');
    await messageWith(alice.page, 'back by code').waitFor();

    await createRoom();
    await paste(`${product.server.url}/translate?r=${roomId}`);
    await bob.page.waitForURL((url) => url.searchParams.get('r') === roomId);
    await say(bob.page, 'back by link');
    await messageWith(alice.page, 'back by link').waitFor();
    await alice.context.close();
    await bob.context.close();
  });

  /** The gzipped size of every script the page downloads from now on (the decoded body, gzipped as a server would). */
  const scriptSizes = (page: Page) => {
    const sizes: Promise<number>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      sizes.push(response.body().then((body) => gzipSync(body, { level: 9 }).length));
    });
    return async () => (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
  };

  it('loads at most 100 KB of gzipped JavaScript on a first visit', async () => {
    const gina = await newPerson(product.browser, product.server.url);
    const total = scriptSizes(gina.page);
    await gina.page.goto('/login');
    await gina.page.getByTestId('login').waitFor();
    await gina.page.waitForLoadState('networkidle');
    expect(await total()).toBeGreaterThan(0);
    expect(await total()).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
    await gina.context.close();
  });

  it("paints a Japanese user's first screen in Japanese, within the same budget", async () => {
    const ichiro = await newPerson(product.browser, product.server.url, { language: 'ja' });
    // the text of #root after every change, from the first render on: each state the page could paint
    await ichiro.context.addInitScript(() => {
      const w = window as unknown as { __rootTexts: string[] };
      w.__rootTexts = [];
      new MutationObserver(() => {
        const text = document.getElementById('root')?.textContent;
        if (text) w.__rootTexts.push(text);
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const total = scriptSizes(ichiro.page);
    await ichiro.page.goto('/login');
    await ichiro.page.getByTestId('login').waitFor();
    await ichiro.page.waitForLoadState('networkidle');
    const texts = await ichiro.page.evaluate(
      () => (window as unknown as { __rootTexts: string[] }).__rootTexts,
    );
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) {
      expect(text).toMatch(/[\u3040-\u30ff]/); // kana: Japanese from the first paint
      expect(text).not.toMatch(/Loading|Welcome|Sign in/);
    }
    expect(texts.at(-1)).toContain('XTalkへようこそ');
    expect(await ichiro.page.evaluate(() => document.documentElement.lang)).toBe('ja');
    // the entry, the Japanese words and the page: the heaviest first visit holds the budget too
    expect(await total()).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
    await ichiro.context.close();
  });
});

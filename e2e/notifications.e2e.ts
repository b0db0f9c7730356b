import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';
import { enterAsGuest, newPerson } from './lib/people.js';
import { messageWith, roomIdOf, say } from './lib/room.js';

/*
 * System notifications while the tab is hidden. Headless Chromium never hides a page (another tab brought
 * to the front leaves it 'visible'), so an init script stands in for document.hidden and the test flips it;
 * another wraps window.Notification to record what is shown, closed and asked for.
 */

interface Recorded {
  made: Array<{ title: string; body: string; tag: string }>;
  closed: string[];
  asked: number;
  oscillators: number;
}

function recordAlerts() {
  const w = window as unknown as {
    recorded: Recorded;
    setHidden: (value: boolean) => void;
    last?: Notification;
  };
  const recorded: Recorded = { made: [], closed: [], asked: 0, oscillators: 0 };
  w.recorded = recorded;
  const Real = window.Notification;
  class RecordedNotification extends Real {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options);
      recorded.made.push({ title, body: options?.body ?? '', tag: options?.tag ?? '' });
      w.last = this;
    }
    override close() {
      recorded.closed.push(this.tag);
      super.close();
    }
  }
  Object.defineProperty(RecordedNotification, 'requestPermission', {
    value: (...args: Parameters<typeof Notification.requestPermission>) => {
      recorded.asked++;
      return Real.requestPermission(...args);
    },
  });
  Object.defineProperty(window, 'Notification', {
    value: RecordedNotification,
    configurable: true,
    writable: true,
  });
  let hidden = false;
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => hidden });
  Object.defineProperty(Document.prototype, 'visibilityState', {
    configurable: true,
    get: () => (hidden ? 'hidden' : 'visible'),
  });
  w.setHidden = (value) => {
    hidden = value;
    document.dispatchEvent(new Event('visibilitychange'));
  };
  const createOscillator = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function (this: AudioContext) {
    recorded.oscillators++;
    return createOscillator.call(this);
  };
}

const recorded = (page: Page) => page.evaluate(() => (window as unknown as { recorded: Recorded }).recorded);
const setHidden = (page: Page, value: boolean) =>
  page.evaluate((v) => (window as unknown as { setHidden: (value: boolean) => void }).setHidden(v), value);

describe('notifications', () => {
  // the fake engine streams slowly enough that the original is shown before its translation
  const product = productInBrowser({ FAKE_AI_CHUNK_DELAY_MS: '100' });

  it('are turned on from the settings menu only, and show others’ messages while the tab is hidden', async () => {
    const alice = await newPerson(product.browser, product.server.url);
    await enterAsGuest(alice.page);
    const roomId = await roomIdOf(alice.page);
    const bob = await newPerson(product.browser, product.server.url, { language: 'ja' });
    await bob.context.grantPermissions(['notifications'], { origin: product.server.url });
    await bob.context.addInitScript(recordAlerts);
    await enterAsGuest(bob.page, `/translate?r=${roomId}`);

    // the room is loaded and live: nothing asked for the permission on the way
    await say(alice.page, 'hello before');
    await messageWith(bob.page, 'hello before').waitFor();
    expect((await recorded(bob.page)).asked).toBe(0);

    await bob.page.getByTestId('settings-menu').click();
    const item = bob.page.getByTestId('menu-notifications');
    await expect.poll(() => item.getAttribute('aria-checked')).toBe('false');
    await item.click();
    await expect.poll(() => item.getAttribute('aria-checked')).toBe('true');
    expect((await recorded(bob.page)).asked).toBe(1);
    await bob.page.keyboard.press('Escape');

    const base = await bob.page.title();
    await setHidden(bob.page, true);
    const text = 'the train leaves at nine';
    await say(alice.page, text);
    // the original first, then its translation replaces it under the same tag
    await expect.poll(async () => (await recorded(bob.page)).made.length, { timeout: 20_000 }).toBe(2);
    const { made, oscillators } = await recorded(bob.page);
    expect(made[0]!.body).toBe(text);
    expect(made[0]!.title).toContain(`ルーム ${roomId}`);
    expect(made[1]).toEqual({ ...made[0], body: `[ja] ${text}` });
    // one chime (two notes) for the message, none for its replacement
    expect(oscillators).toBe(2);

    // his own message never notifies: the next one from Alice is the next notification
    await say(bob.page, 'mine, while away');
    await messageWith(alice.page, 'mine, while away').waitFor();
    await say(alice.page, 'second while away');
    await expect
      .poll(async () => (await recorded(bob.page)).made.map((n) => n.body), { timeout: 20_000 })
      .toContain('second while away');
    const bodies = (await recorded(bob.page)).made.map((n) => n.body);
    expect(bodies.filter((body) => body.includes('mine'))).toEqual([]);
    expect(await bob.page.title()).toBe(`(2) ${base}`);
    expect((await recorded(bob.page)).oscillators).toBe(4);

    // with the message sound turned off, the next message notifies without a chime
    await bob.page.getByTestId('settings-menu').click();
    await bob.page.getByTestId('menu-sound').click();
    await expect.poll(() => bob.page.getByTestId('menu-sound').getAttribute('aria-checked')).toBe('false');
    await bob.page.keyboard.press('Escape');
    await say(alice.page, 'third while away');
    await expect
      .poll(async () => (await recorded(bob.page)).made.map((n) => n.body), { timeout: 20_000 })
      .toContain('third while away');
    expect((await recorded(bob.page)).oscillators).toBe(4);

    // a click on a notification closes it (and focuses the window)
    // the tag is read from the clicked notification itself: a translation may make another meanwhile
    const clicked = await bob.page.evaluate(() => {
      const { last } = window as unknown as { last: Notification };
      last.dispatchEvent(new Event('click'));
      return last.tag;
    });
    await expect.poll(async () => (await recorded(bob.page)).closed).toContain(clicked);

    // back on the tab: every notification of the room closes and the title is cleared
    await setHidden(bob.page, false);
    await expect
      .poll(async () => new Set((await recorded(bob.page)).closed))
      .toEqual(new Set((await recorded(bob.page)).made.map((n) => n.tag)));
    await expect.poll(() => bob.page.title()).toBe(base);

    await alice.context.close();
    await bob.context.close();
  });

  it('say when the browser blocks them', async () => {
    // without the permission granted, headless Chromium denies it
    const carol = await newPerson(product.browser, product.server.url);
    await carol.context.addInitScript(recordAlerts);
    await enterAsGuest(carol.page);
    await carol.page.getByTestId('settings-menu').click();
    await carol.page.getByTestId('menu-notifications').click();
    await carol.page.getByText('Blocked in browser settings').waitFor();
    expect((await recorded(carol.page)).asked).toBe(1);
    expect(await carol.page.getByTestId('menu-notifications').getAttribute('aria-checked')).toBe('false');
    await carol.context.close();
  });
});

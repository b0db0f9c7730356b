import { describe, expect, it } from 'vitest';
import { productInEngine } from '../engines/block.js';
import { ENGINES, type EnginePage } from '../engines/index.js';
import {
  absent,
  byTestId,
  countOf,
  enterAsGuest,
  messageShown,
  newPerson,
  present,
  say,
  waitUntil,
} from '../engines/people.js';

/*
 * Offline in each engine: messages typed while the socket cannot get through wait in the outbox, survive
 * a reload and go out once each when it can; the service worker takes over the page and, with the network
 * gone, still opens a room's address as the app's own "Connecting..." screen.
 */

const pendingCount = (page: EnginePage) =>
  page.evaluate(() => document.querySelectorAll('[data-testid="pending-message"]').length, null);

describe.each(ENGINES)('offline in %s', (name) => {
  const product = productInEngine(name);

  it('keeps messages typed offline through a reload and delivers each once when back', async () => {
    const [aliceLine, bobLine] = product.lines;
    const alice = await newPerson(product.engine, aliceLine!.url);
    const roomId = await enterAsGuest(alice);
    const bob = await newPerson(product.engine, bobLine!.url);
    await enterAsGuest(bob, `/translate?r=${roomId}`);
    await say(alice, 'Before the tunnel');
    await messageShown(bob, 'Before the tunnel');

    bobLine!.cutSockets();
    await waitUntil(bob, 'the reconnecting banner', present, byTestId('reconnecting-banner'));
    await say(bob, 'Typed offline, one');
    await waitUntil(
      bob,
      'the outbox note',
      () => document.body.textContent?.includes('Will send when connected'),
      null,
    );
    await say(bob, 'Typed offline, two');
    await waitUntil(
      bob,
      'two waiting',
      async () => document.querySelectorAll('[data-testid="pending-message"]').length === 2,
      null,
    );

    // a reload while the socket still cannot get through: the outbox survives it
    await bob.reload();
    await waitUntil(
      bob,
      'the reconnecting banner after the reload',
      present,
      byTestId('reconnecting-banner'),
      30_000,
    );
    await waitUntil(
      bob,
      'two still waiting',
      () => document.querySelectorAll('[data-testid="pending-message"]').length === 2,
      null,
    );

    bobLine!.mend();
    await messageShown(alice, 'Typed offline, one', 30_000);
    await messageShown(alice, 'Typed offline, two');
    await waitUntil(bob, 'the outbox empty', absent, byTestId('pending-message'), 30_000);
    await say(alice, 'Welcome back');
    for (const page of [alice, bob]) {
      await messageShown(page, 'Welcome back');
      expect(await countOf(page, 'Typed offline, one')).toBe(1);
      expect(await countOf(page, 'Typed offline, two')).toBe(1);
    }
    expect(await pendingCount(bob)).toBe(0);
    await alice.close();
    await bob.close();
  }, 300_000);

  it('has the service worker open a room as the app when the network is gone', async () => {
    const line = product.lines[2]!;
    const carol = await newPerson(product.engine, line.url);
    const roomId = await enterAsGuest(carol);
    // the worker takes over this page (or, where it does not claim a page, the next load) and holds the
    // shell it answers with offline
    const controlled = () =>
      navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller !== null);
    if (!(await carol.evaluate(controlled, null).catch(() => false))) await carol.reload();
    await waitUntil(carol, 'a page the service worker controls', controlled, null, 30_000);
    await waitUntil(carol, 'the shell kept', () => caches.match('/index.html').then(Boolean), null, 30_000);

    line.cut();
    await carol.goto(`/translate?r=${roomId}`);
    // the app's own offline state, not the browser's error page: the Connecting screen, or (where the
    // engine kept the room's session, as WebKit does) the room with its Reconnecting banner
    const offline = `${byTestId('connecting-overlay')}, ${byTestId('reconnecting-banner')}`;
    await waitUntil(carol, "the app's own offline state", present, offline, 30_000);
    line.mend();
    await waitUntil(carol, 'connected again', absent, offline, 45_000);
    await carol.close();
  }, 300_000);
});

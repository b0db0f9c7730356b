import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { listedNodes, socketsOn } from './lib/listed-nodes.js';
import { enterAsGuest, newPerson, type Person } from './lib/people.js';
import { connected, roomIdOf, say, seenOnceBy } from './lib/room.js';

/*
 * A room's home node (decision 0237) in Chromium: the page and the joins on node A, whose list names
 * nodes B and C, all three on PostgreSQL and Redis. Two people share a room, so both sockets sit on its
 * home. The home is killed: the pages go on through the other node. The home comes back: after the
 * client's random wait (run forward on the pages' own clock) each page moves back to it as a
 * handover, with no reconnecting banner, every message shown once.
 */

/** The client's longest wait before it looks at the room's home again (lib/socket-endpoints.ts). */
const HOME_CHECK_MAX_MS = 90_000;

describe("a room's home node: gone, then back", () => {
  const nodes = listedNodes('home-return', 13);

  /** A guest whose page runs on a clock the test can move forward, entering `path`. */
  async function guest(path: string): Promise<Person> {
    const person = await newPerson(nodes.browser, nodes.page.url);
    await person.page.clock.install();
    await enterAsGuest(person.page, path);
    await connected(person.page);
    return person;
  }

  /** Notes in the page whether the reconnecting banner shows at any moment from now on. */
  async function watchBanner(tab: Page) {
    await tab.evaluate(() => {
      const seen = () => document.querySelector('[data-testid="reconnecting-banner"]') !== null;
      const flags = window as unknown as { __xtalkBannerSeen?: boolean };
      flags.__xtalkBannerSeen = seen();
      new MutationObserver(() => {
        if (seen()) flags.__xtalkBannerSeen = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
  }
  const bannerSeen = (tab: Page) =>
    tab.evaluate(() => (window as unknown as { __xtalkBannerSeen?: boolean }).__xtalkBannerSeen);

  it('goes on on the next node while the home is gone, and moves back to it quietly', async () => {
    const alice = await guest('/');
    const bob = await guest(`/translate?r=${await roomIdOf(alice.page)}`);
    const people = [alice, bob];
    await say(alice.page, 'at home');
    await seenOnceBy(people, 'at home');
    // both sockets on the room's home, none on the other node
    const counts = await Promise.all(nodes.sockets.map(socketsOn));
    expect([...counts].sort()).toEqual([0, 2]);
    const home = nodes.sockets[counts.indexOf(2)]!;
    const other = nodes.sockets[counts.indexOf(0)]!;

    await home.kill();
    await say(bob.page, 'away, Bob');
    await say(alice.page, 'away, Alice');
    await seenOnceBy(people, 'away, Bob');
    await seenOnceBy(people, 'away, Alice');
    await expect.poll(() => socketsOn(other), { timeout: 20_000 }).toBe(2);
    for (const person of people) await connected(person.page);

    await home.boot();
    for (const person of people) await watchBanner(person.page);
    // the client's wait, run forward until each page has looked at its home and moved there
    await expect
      .poll(
        async () => {
          for (const person of people) await person.page.clock.fastForward(HOME_CHECK_MAX_MS);
          return socketsOn(home);
        },
        { timeout: 60_000, interval: 1000 },
      )
      .toBe(2);
    await say(alice.page, 'home again, Alice');
    await say(bob.page, 'home again, Bob');
    for (const text of ['at home', 'away, Bob', 'away, Alice', 'home again, Alice', 'home again, Bob'])
      await seenOnceBy(people, text);
    await expect.poll(() => socketsOn(other)).toBe(0);
    for (const person of people) expect(await bannerSeen(person.page)).toBe(false);
    for (const person of people) await person.context.close();
  });
});

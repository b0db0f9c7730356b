import { describe, expect, it } from 'vitest';
import type { WebSocketRoute } from 'playwright-core';
import { productInBrowser } from './block-hooks.js';
import { messageWith, say, twoGuestsInRoom } from './lib/room.js';

/*
 * A socket that dies without a close (docs/decisions/0139), in Chromium against the real server. Bob's
 * WebSockets pass through Playwright's WebSocket route, which can make one go silent the way a dead
 * network does: frames stop arriving, and no close comes. His page must notice by itself and reconnect.
 */
describe('a connection that dies without a close', () => {
  const product = productInBrowser();

  /**
   * Alice and Bob in a room, Bob's sockets through a route: once muted, the server's frames to that socket
   * stop arriving (his own still reach the server), and no close comes.
   */
  async function withMutableBob() {
    const muted = new Set<WebSocketRoute>();
    const sockets: WebSocketRoute[] = [];
    const people = await twoGuestsInRoom(product.browser, product.server.url, (person) =>
      person.context.routeWebSocket(/\/xtalk_ws\//, (ws) => {
        const toServer = ws.connectToServer();
        sockets.push(ws);
        ws.onMessage((message) => toServer.send(message));
        toServer.onMessage((message) => {
          if (!muted.has(ws)) ws.send(message);
        });
      }),
    );
    return { ...people, sockets, mute: (ws: WebSocketRoute) => muted.add(ws) };
  }

  it('is given up when a message hears nothing back; it is then delivered once and nothing is missed', async () => {
    const { alice, bob, sockets, mute } = await withMutableBob();
    await say(alice.page, 'Before the silence');
    await messageWith(bob.page, 'Before the silence').waitFor();
    expect(sockets).toHaveLength(1);

    mute(sockets[0]!);
    await say(alice.page, 'Said into the silence');
    await messageWith(alice.page, 'Said into the silence').waitFor();
    // Bob's message reaches the server, which stores it, but its acknowledgement never reaches him
    await say(bob.page, 'Are you there?');
    await messageWith(alice.page, 'Are you there?').waitFor();
    const pending = bob.page.getByTestId('pending-message');
    await expect.poll(() => pending.count()).toBe(1);

    // the answer timeout (10 s), then an unanswered ping (5 s), then a reconnect: a new socket, the missed
    // message, the outbox settled
    await messageWith(bob.page, 'Said into the silence').waitFor({ timeout: 30_000 });
    expect(sockets).toHaveLength(2);
    await expect.poll(() => pending.count(), { timeout: 10_000 }).toBe(0);
    await messageWith(bob.page, 'Are you there?').waitFor();

    // the resend by client id was not stored twice
    await say(bob.page, 'Back again');
    for (const page of [alice.page, bob.page]) {
      await messageWith(page, 'Back again').waitFor();
      expect(await messageWith(page, 'Are you there?').count()).toBe(1);
      expect(await messageWith(page, 'Said into the silence').count()).toBe(1);
    }
    await alice.page.reload();
    await messageWith(alice.page, 'Back again').waitFor();
    expect(await messageWith(alice.page, 'Are you there?').count()).toBe(1);
  });

  it('is found dead by a listener who sends nothing: the tab coming back asks the socket (ping)', async () => {
    const { alice, bob, sockets, mute } = await withMutableBob();
    await say(alice.page, 'Are you listening?');
    await messageWith(bob.page, 'Are you listening?').waitFor();
    mute(sockets[0]!);
    await say(alice.page, 'Said while the line was dead');
    await messageWith(alice.page, 'Said while the line was dead').waitFor();
    // the client asks only a socket quiet for a moment (PROBE_MIN_QUIET_MS, 2 s) when the tab comes back
    await bob.page.waitForTimeout(2500);
    await bob.page.evaluate(() => window.dispatchEvent(new Event('focus')));
    // the ping goes out, its pong never comes back: the answer timeout, a new socket, the resume
    await messageWith(bob.page, 'Said while the line was dead').waitFor({ timeout: 20_000 });
    expect(sockets).toHaveLength(2);
    expect(await messageWith(bob.page, 'Are you listening?').count()).toBe(1);
  });

  it('shows reconnecting as soon as the browser goes offline, and is back at once when online', async () => {
    const sockets: WebSocketRoute[] = [];
    const { alice, bob } = await twoGuestsInRoom(product.browser, product.server.url, (person) =>
      person.context.routeWebSocket(/\/xtalk_ws\//, (ws) => {
        sockets.push(ws);
        ws.connectToServer();
      }),
    );
    await say(alice.page, 'Still online');
    await messageWith(bob.page, 'Still online').waitFor();

    // Chromium's offline mode leaves open WebSockets up; only the page's own reaction shows it
    await bob.context.setOffline(true);
    await bob.page.getByTestId('reconnecting-banner').waitFor();
    await say(alice.page, 'Sent while Bob was offline');
    await messageWith(alice.page, 'Sent while Bob was offline').waitFor();

    await bob.context.setOffline(false);
    await messageWith(bob.page, 'Sent while Bob was offline').waitFor();
    await bob.page.getByTestId('reconnecting-banner').waitFor({ state: 'detached' });
    expect(sockets).toHaveLength(2);
    await say(bob.page, 'Back online');
    await messageWith(alice.page, 'Back online').waitFor();
    expect(await messageWith(bob.page, 'Sent while Bob was offline').count()).toBe(1);
  });
});

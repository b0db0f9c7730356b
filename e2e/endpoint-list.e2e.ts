import { describe, expect, it } from 'vitest';
import { listedNodes, socketsOn } from './lib/listed-nodes.js';
import { say, seenOnceBy, twoGuestsInRoom } from './lib/room.js';

/*
 * The web client with a list of endpoints (PUBLIC_WS_ENDPOINTS, decision 0164): the page and the joins
 * on node A, whose list names nodes B and C, all three on PostgreSQL and Redis. Two people chat in
 * Chromium; the node holding most of their sockets is killed with SIGKILL; they go on through the other
 * one, each message shown once, the earlier ones kept. One address in front of several nodes is
 * tls-proxy.e2e.ts.
 */
describe('a list of endpoints: a node killed mid-conversation', () => {
  const nodes = listedNodes('endpoints', 12);

  it('opens sockets only on the listed nodes and moves on to the next when one dies', async () => {
    const opened: string[] = [];
    const { alice, bob } = await twoGuestsInRoom(nodes.browser, nodes.page.url, (person) => {
      person.page.on('websocket', (socket) => opened.push(socket.url()));
      return Promise.resolve();
    });
    alice.page.on('websocket', (socket) => opened.push(socket.url()));
    const people = [alice, bob];
    await say(alice.page, 'before the kill');
    await seenOnceBy(people, 'before the kill');
    expect(await socketsOn(nodes.page)).toBe(0);

    const counts = await Promise.all(nodes.sockets.map(socketsOn));
    const dead = counts[0]! >= counts[1]! ? 0 : 1;
    expect(counts[dead]).toBeGreaterThan(0);
    await nodes.sockets[dead]!.kill();
    for (let n = 1; n <= 3; n++) {
      await say(bob.page, `after the kill, Bob ${n}`);
      await say(alice.page, `after the kill, Alice ${n}`);
    }
    for (let n = 1; n <= 3; n++) {
      await seenOnceBy(people, `after the kill, Bob ${n}`);
      await seenOnceBy(people, `after the kill, Alice ${n}`);
    }
    await seenOnceBy(people, 'before the kill');
    await expect.poll(() => socketsOn(nodes.sockets[1 - dead]!)).toBe(2);
    const listed = nodes.sockets.map((node) => node.url.replace(/^http/, 'ws'));
    expect(opened.length).toBeGreaterThan(0);
    expect(opened.every((url) => listed.some((origin) => url.startsWith(`${origin}/xtalk_ws/`)))).toBe(true);
  });
});

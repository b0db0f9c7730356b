import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDatabase } from '../apps/server/src/testing/scratch-database.js';
import { launchBrowser } from './lib/browser.js';
import type { Person } from './lib/people.js';
import { freePort } from '../apps/server/src/testing/free-port.js';
import { ProductServer } from './lib/product-server.js';
import { messageWith, say, twoGuestsInRoom } from './lib/room.js';

/*
 * The web client with a list of endpoints (PUBLIC_WS_ENDPOINTS, decision 0164): the page and the joins
 * on node A, whose list names nodes B and C, all three on PostgreSQL and Redis. Two people chat in
 * Chromium; the node holding most of their sockets is killed with SIGKILL; they go on through the other
 * one, each message shown once, the earlier ones kept. One address in front of several nodes is
 * tls-proxy.e2e.ts.
 */
const database = scratchDatabase('xtalk_endpoints');

describe('a list of endpoints: a node killed mid-conversation', () => {
  const sockets: ProductServer[] = [];
  let page: ProductServer;
  let browser: Browser;

  beforeAll(async () => {
    await database.create();
    const pagePort = await freePort();
    const env = {
      DATABASE_URL: database.url,
      // a logical database of its own on the machine's Redis; room codes are random besides
      REDIS_URL: `${process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'}/12`,
      AUTH_SECRET: 'endpoint-list-test-secret-shared-by-the-nodes',
      PUBLIC_URL: `http://127.0.0.1:${pagePort}`,
    };
    // one after the other: they would run the migrations at once otherwise
    sockets.push(await ProductServer.start(env));
    sockets.push(await ProductServer.start(env));
    const list = sockets.map((node) => node.url.replace(/^http/, 'ws')).join(',');
    page = await ProductServer.start({ ...env, PUBLIC_WS_ENDPOINTS: list }, pagePort);
    browser = await launchBrowser();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    for (const node of [...sockets, page]) await node?.dispose();
    await database.drop();
  });

  const socketsOn = async (node: ProductServer) =>
    ((await (await fetch(`${node.url}/api/health`)).json()) as { connections: number }).connections;

  async function seenByBoth(people: Person[], text: string) {
    for (const { page: tab } of people) await expect.poll(() => messageWith(tab, text).count()).toBe(1);
  }

  it('opens sockets only on the listed nodes and moves on to the next when one dies', async () => {
    const opened: string[] = [];
    const { alice, bob } = await twoGuestsInRoom(browser, page.url, (person) => {
      person.page.on('websocket', (socket) => opened.push(socket.url()));
      return Promise.resolve();
    });
    alice.page.on('websocket', (socket) => opened.push(socket.url()));
    const people = [alice, bob];
    await say(alice.page, 'before the kill');
    await seenByBoth(people, 'before the kill');
    expect(await socketsOn(page)).toBe(0);

    const counts = await Promise.all(sockets.map(socketsOn));
    const dead = counts[0]! >= counts[1]! ? 0 : 1;
    expect(counts[dead]).toBeGreaterThan(0);
    await sockets[dead]!.kill();
    for (let n = 1; n <= 3; n++) {
      await say(bob.page, `after the kill, Bob ${n}`);
      await say(alice.page, `after the kill, Alice ${n}`);
    }
    for (let n = 1; n <= 3; n++) {
      await seenByBoth(people, `after the kill, Bob ${n}`);
      await seenByBoth(people, `after the kill, Alice ${n}`);
    }
    await seenByBoth(people, 'before the kill');
    await expect.poll(() => socketsOn(sockets[1 - dead]!)).toBe(2);
    const listed = sockets.map((node) => node.url.replace(/^http/, 'ws'));
    expect(opened.length).toBeGreaterThan(0);
    expect(opened.every((url) => listed.some((origin) => url.startsWith(`${origin}/xtalk_ws/`)))).toBe(true);
  });
});

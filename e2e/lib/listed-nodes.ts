import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { onFreePort } from '../../apps/server/src/testing/free-port.js';
import { scratchDatabase } from '../../apps/server/src/testing/scratch-database.js';
import { launchBrowser } from './browser.js';
import { ProductServer } from './product-server.js';

/*
 * Nodes behind a list of endpoints (PUBLIC_WS_ENDPOINTS, decision 0164): node A serves the page and the
 * joins, and its list names nodes B and C, all three on a scratch PostgreSQL database and a logical
 * database of the machine's Redis; made before the block's tests, with a Chromium, and ended after them.
 */

export interface ListedNodes {
  /** Nodes B and C, where the sockets open. */
  readonly sockets: ProductServer[];
  /** Node A: the page and the joins. */
  readonly page: ProductServer;
  readonly browser: Browser;
}

export function listedNodes(name: string, redisDatabase: number): ListedNodes {
  const database = scratchDatabase(`xtalk_${name.replaceAll('-', '_')}`);
  const sockets: ProductServer[] = [];
  let page: ProductServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    await database.create();
    // the nodes name the page's address before it listens: a port taken meanwhile means all three again
    page = await onFreePort(async (pagePort) => {
      const env = {
        DATABASE_URL: database.url,
        // a logical database of its own on the machine's Redis; room codes are random besides
        REDIS_URL: `${process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'}/${redisDatabase}`,
        AUTH_SECRET: `${name}-test-secret-shared-by-the-nodes`,
        PUBLIC_URL: `http://127.0.0.1:${pagePort}`,
      };
      try {
        // one after the other: they would run the migrations at once otherwise
        sockets.push(await ProductServer.start(env));
        sockets.push(await ProductServer.start(env));
        const list = sockets.map((node) => node.url.replace(/^http/, 'ws')).join(',');
        return await ProductServer.start({ ...env, PUBLIC_WS_ENDPOINTS: list }, pagePort);
      } catch (error) {
        for (const node of sockets.splice(0)) await node.dispose();
        throw error;
      }
    });
    browser = await launchBrowser();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    for (const node of [...sockets, page]) await node?.dispose();
    await database.drop();
  });

  return {
    sockets,
    get page() {
      return page!;
    },
    get browser() {
      return browser!;
    },
  };
}

/** How many sockets a node holds now. */
export async function socketsOn(node: ProductServer): Promise<number> {
  return ((await (await fetch(`${node.url}/api/health`)).json()) as { connections: number }).connections;
}

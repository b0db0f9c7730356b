import { afterAll, beforeAll } from 'vitest';
import { startServer, type TestServer } from './harness.js';
import { scratchDatabase, type ScratchDatabase } from './scratch-database.js';

/*
 * `npm run test:services`: nodes of the app on a real PostgreSQL (a scratch database of the block's own)
 * and Redis (REDIS_URL, default the local server), made before the block's tests and closed after them.
 */

type StartOptions = Parameters<typeof startServer>[1];

/** What every node signs its tokens with (memberLogin needs it). */
export const NODES_SECRET = 'services-test-secret-shared-by-the-nodes';

export interface ServiceNodes {
  readonly database: ScratchDatabase;
  /** What every node is started with: the database, Redis and the secret, then the block's settings. */
  readonly env: Record<string, string>;
  /** The running nodes, from beforeAll on; a test that starts them anew puts the new ones in their place. */
  readonly nodes: TestServer[];
}

export function serviceNodes(
  prefix: string,
  count: number,
  settings: Record<string, string> = {},
  /** Each node's start options, or a function of its index (a node on a port of its own). */
  options: StartOptions | ((index: number) => StartOptions) = {},
): ServiceNodes {
  const optionsOf = typeof options === 'function' ? options : () => options;
  const database = scratchDatabase(prefix);
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    AUTH_SECRET: NODES_SECRET,
    ...settings,
  };
  const nodes: TestServer[] = [];
  beforeAll(async () => {
    // empty, not from the migrated template: every node migrates it at once, and the advisory lock lets
    // one do it (nodes started together on one new database are what these blocks are for)
    await database.createEmpty();
    nodes.push(
      ...(await Promise.all(Array.from({ length: count }, (_, i) => startServer(env, optionsOf(i))))),
    );
  });
  afterAll(async () => {
    await Promise.allSettled(nodes.map((node) => node.close()));
    await database.drop();
  });
  return { database, env, nodes };
}

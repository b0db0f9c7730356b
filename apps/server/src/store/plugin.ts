import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { openDb, type Db } from './db.js';
import { migrate } from './migrations.js';

/*
 * The database every other plugin builds on, migrated before anything else runs. It closes last, in the
 * lifecycle plugin's order.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The app's database. Each module's plugin builds its own repositories on it; tests arrange and read
     * state through the modules' APIs or testing/seed/, never through this.
     */
    xtalkDb: Db;
  }
}

/**
 * The database, migrated. It opens before the plugins, outside Fastify's plugin timeout: a database start
 * on a loaded machine may take longer than any plugin should.
 */
export async function openDatabase(
  config: Config,
  inMemoryDb: boolean | undefined,
  snapshot?: Uint8Array,
): Promise<Db> {
  const db = await openDb({
    databaseUrl: config.DATABASE_URL,
    dataDir: inMemoryDb ? undefined : config.DATA_DIR,
    snapshot,
  });
  // a snapshot's database may already be migrated: then this only checks that nothing is left to apply
  await migrate(db);
  return db;
}

export const storePlugin = fp<{ db: Db }>(
  async (app, { db }) => {
    app.decorate('xtalkDb', db);
  },
  { name: 'xtalk-store' },
);

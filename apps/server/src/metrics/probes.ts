import type { MetricsSources } from './registry.js';
import type { Db } from '../store/index.js';

/*
 * What xtalk_db_up reads at a scrape: the embedded database's thread is alive, and the database answers
 * a trivial query within a moment (a scrape must not hang on a database that stopped answering).
 */

export function databaseProbe(db: Pick<Db, 'query' | 'lost'>, timeoutMs = 2000): () => Promise<boolean> {
  let lost = false;
  void db.lost?.then(() => (lost = true));
  return async () => {
    if (lost) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([db.query('select 1').then(() => true), late]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  };
}

/** What the gauges read, from the app's parts. */
export function appSources(parts: {
  gateway: { size(): number };
  hub: { stats(): { rooms: number } };
  bus: { isConnected?(): boolean };
  db: Pick<Db, 'query' | 'lost'>;
  readiness: { notReady(): Promise<unknown[]> };
}): MetricsSources {
  const { gateway, hub, bus, db, readiness } = parts;
  return {
    connections: () => gateway.size(),
    rooms: () => hub.stats().rooms,
    busUp: () => bus.isConnected?.() ?? true,
    dbUp: databaseProbe(db),
    ready: async () => (await readiness.notReady()).length === 0,
  };
}

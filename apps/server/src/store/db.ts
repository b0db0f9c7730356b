import { join } from 'node:path';
import { openPglite, type Queryable } from '@xtalk/pglite-engine';
import { openPostgres } from '@xtalk/service-base';

export type { Queryable };

/**
 * The one database interface the modules see. PGlite (PostgreSQL compiled to WASM) by default, a real
 * PostgreSQL when DATABASE_URL is set: same SQL, same migrations, so tests on either prove the other.
 */
export interface Db {
  query<Row extends object = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: Row[] }>;
  /** Runs `fn` in one transaction on one connection; rolls back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
  /**
   * The same database for work that can wait (translation writes, credit spends; decision 0117): on
   * PGlite's one connection it is handed over only while no chat work waits, and a few statements at a
   * time (the engine's lanes), so chat inserts and joins never queue behind more than those. On
   * PostgreSQL it is the same pool.
   */
  readonly background: Pick<Db, 'query' | 'transaction' | 'kind'>;
  /**
   * Settles with the reason if the embedded database is lost while the server runs (its thread died).
   * Nothing works without it, so the server reports itself down and stops (server.ts) for its supervisor
   * to start it again. Undefined for PostgreSQL, whose pool reconnects by itself.
   */
  readonly lost?: Promise<Error>;
}

export interface DbOptions {
  databaseUrl?: string | undefined;
  /** Directory for PGlite's files; undefined keeps the database in memory (tests). */
  dataDir?: string | undefined;
  /**
   * An embedded database's files to start from (a PGlite `dumpDataDir` tarball) instead of a new, empty
   * one: tests start from one migrated once per run. Ignored for PostgreSQL and for a data directory
   * that already holds a database.
   */
  snapshot?: Uint8Array | undefined;
}

export async function openDb(options: DbOptions): Promise<Db> {
  return options.databaseUrl
    ? openPostgresDb(options.databaseUrl)
    : openEmbedded(options.dataDir, options.snapshot);
}

/**
 * PostgreSQL's memory settings for a chat server's small tables (decision 0111): PGlite's defaults
 * (shared_buffers 160 MB, maintenance_work_mem 64 MB) cost most of the RSS at start and buy nothing here.
 * PGlite zeroes its shared memory at start, so all of shared_buffers is resident from the first second;
 * 8 MB (1,024 pages) holds a busy node's recent messages and indexes, and what falls out is read back
 * from the data files through the OS's page cache (decision 0123). The rest of the shared memory is
 * sized by the connection slots: PGlite serves one connection, so 5 slots instead of PostgreSQL's 100, no
 * WAL senders and a WAL buffer of shared_buffers / 32 (PostgreSQL's own rule) make it smaller
 * (decision 0125).
 */
const PGLITE_MEMORY = {
  shared_buffers: '8MB',
  wal_buffers: '256kB',
  temp_buffers: '2MB',
  work_mem: '2MB',
  maintenance_work_mem: '16MB',
  max_connections: '5',
  max_wal_senders: '0',
  autovacuum_max_workers: '1',
};
/** The settings above as PostgreSQL's `-c name=value` start parameters (after PGlite's own). */
export const pgliteSettings = (): string[] =>
  Object.entries(PGLITE_MEMORY).flatMap(([name, value]) => ['-c', `${name}=${value}`]);

/**
 * PGlite from its own package: over a data directory on a thread of its own, so its file writes and query
 * work never stall the sockets (decision 0118); in memory (tests) in this thread.
 */
const openEmbedded = (dataDir: string | undefined, snapshot: Uint8Array | undefined): Promise<Db> =>
  openPglite({ dir: dataDir && join(dataDir, 'db'), settings: pgliteSettings(), snapshot });

/** How long a transaction may wait on its node between statements before PostgreSQL ends it. */
const IDLE_IN_TRANSACTION_MS = 15_000;

async function openPostgresDb(databaseUrl: string): Promise<Db> {
  // A node that stalls or dies inside a transaction (no FIN reaches the server) would keep its row locks,
  // a room row's among them, and every node's inserts into that room would wait: PostgreSQL ends such a
  // transaction itself (docs/decisions/0167-no-room-waits-for-a-stalled-node.md).
  const pool = await openPostgres(databaseUrl, { idleInTransactionMs: IDLE_IN_TRANSACTION_MS });
  const db: Omit<Db, 'close' | 'background'> = {
    kind: 'postgres',
    query: pool.query,
    transaction: pool.transaction,
  };
  // a pool of connections: nothing queues behind background work, so it needs no lane of its own
  return { ...db, background: db, close: pool.close };
}

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

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
}
export interface Queryable {
  query: Db['query'];
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface DbOptions {
  databaseUrl?: string | undefined;
  /** Directory for PGlite's files; undefined keeps the database in memory (tests). */
  dataDir?: string | undefined;
}

export async function openDb(options: DbOptions): Promise<Db> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir);
}

async function openPglite(dataDir: string | undefined): Promise<Db> {
  let dir: string | undefined;
  if (dataDir) {
    dir = join(dataDir, 'db');
    mkdirSync(dir, { recursive: true });
  }
  const db = dir ? await PGlite.create(dir) : await PGlite.create();
  // PGlite is one connection: every statement and transaction goes through one queue, so a statement
  // never lands inside another caller's open transaction.
  let tail: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work);
    tail = run.catch(() => undefined);
    return run;
  };
  return {
    kind: 'pglite',
    query: (sql, params) => serial(() => db.query(sql, params) as never),
    transaction: (fn) =>
      serial(() =>
        db.transaction((tx) =>
          fn({
            query: (sql, params) => tx.query(sql, params) as never,
            exec: async (sql) => void (await tx.exec(sql)),
          }),
        ),
      ),
    close: () => serial(() => db.close()),
  };
}

async function openPostgres(databaseUrl: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // An idle client's error (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  await pool.query('select 1');
  return {
    kind: 'postgres',
    query: (sql, params) => pool.query(sql, params as unknown[]) as never,
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn({
          query: (sql, params) => client.query(sql, params as unknown[]) as never,
          exec: async (sql) => void (await client.query(sql)),
        });
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

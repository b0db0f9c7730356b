import type { Queryable } from './sql.js';

/*
 * A PostgreSQL pool as a database: statements on any connection, a transaction on one. The driver is
 * loaded only when a database URL is given: the embedded default never needs it (decision 0116).
 */

export interface PostgresDb {
  query: Queryable['query'];
  /** Runs `fn` in one transaction on one connection; rolls back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface PostgresOptions {
  /** How long a transaction may wait between statements before PostgreSQL ends it; unset: never. */
  idleInTransactionMs?: number;
}

export async function openPostgres(databaseUrl: string, options: PostgresOptions = {}): Promise<PostgresDb> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    ...(options.idleInTransactionMs === undefined
      ? {}
      : { idle_in_transaction_session_timeout: options.idleInTransactionMs }),
  });
  // An idle client's error (a server restart) must not end the process; the pool replaces it.
  pool.on('error', () => undefined);
  await pool.query('select 1');
  return {
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

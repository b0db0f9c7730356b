import { join } from 'node:path';
import { openPglite } from '@xtalk/pglite-engine';
import { openPostgres } from '@xtalk/service-base';
import { ORDERS_AND_WITHDRAWALS_SQL, SERVICE_TABLES_SQL, STANDALONE_LEDGER_SQL } from '../schema.js';
import type { Db } from '../ports.js';

/*
 * The standalone service's database: PostgreSQL when a DATABASE_URL is given, else PGlite (in DATA_DIR/db,
 * or in memory without one), and its tables made by the same statements XTalk's migrations run, each
 * step once, recorded in a table of its own.
 */

export type StandaloneDb = Db & { close(): Promise<void> };

export function openStandaloneDb(options: {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** A PGlite data directory tarball a new embedded database starts from (tests: already migrated). */
  snapshot?: Uint8Array | undefined;
}): Promise<StandaloneDb> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite({ dir: options.dataDir && join(options.dataDir, 'db'), snapshot: options.snapshot });
}

const STEPS: [string, string][] = [
  ['orders and withdraw requests', ORDERS_AND_WITHDRAWALS_SQL],
  ['purchases, transactions, withdraw decisions', SERVICE_TABLES_SQL],
  ['standalone ledger', STANDALONE_LEDGER_SQL],
];
const LOCK_KEY = 87_870_002;

/** Makes the service's tables, each step once, under a lock so that nodes starting together do not race. */
export function migrateStandalone(db: Db): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await tx.exec(
      'create table if not exists payment_schema (step text primary key, applied_at timestamptz not null default now())',
    );
    const { rows } = await tx.query<{ step: string }>('select step from payment_schema');
    const done = new Set(rows.map((row) => row.step));
    const ran: string[] = [];
    for (const [step, sql] of STEPS) {
      if (done.has(step)) continue;
      await tx.exec(sql);
      await tx.query('insert into payment_schema (step) values ($1)', [step]);
      ran.push(step);
    }
    return ran;
  });
}

import { randomBytes } from 'node:crypto';
import pg from 'pg';

/*
 * A database of a services test's own on the real PostgreSQL (`npm run test:services`; DATABASE_URL,
 * default the machine's local server): created before the test, dropped after it, so runs and files
 * never share rows. In a services run it is a copy of the run's migrated template
 * (testing/services-global-setup.ts), so the servers started on it find every migration applied.
 */
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The environment variable naming the run's migrated template database. */
export const TEMPLATE_ENV = 'XTALK_TEST_PG_TEMPLATE';

async function query<T extends object>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

export interface ScratchDatabase {
  /** Its connection string (DATABASE_URL for the servers under test). */
  readonly url: string;
  /** Creates it: from the run's migrated template when there is one on this server, else empty. */
  create(): Promise<void>;
  /** Creates it empty, for servers that must migrate it themselves. */
  createEmpty(): Promise<void>;
  drop(): Promise<void>;
  /** One statement on the scratch database, on a connection of its own. */
  query<T extends object>(text: string, params?: unknown[]): Promise<T[]>;
}

/** `admin`: the server's connection string to create it from (the bench passes BENCH_DATABASE_URL). */
export function scratchDatabase(prefix: string, admin = adminUrl): ScratchDatabase {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const template = admin === adminUrl ? process.env[TEMPLATE_ENV] : undefined;
  return {
    url: url.toString(),
    create: async () =>
      void (await query(admin, `create database ${name}${template ? ` template ${template}` : ''}`)),
    createEmpty: async () => void (await query(admin, `create database ${name}`)),
    drop: async () => void (await query(admin, `drop database if exists ${name} with (force)`)),
    query: (text, params) => query(url.toString(), text, params),
  };
}

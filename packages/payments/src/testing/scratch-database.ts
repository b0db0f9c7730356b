import { randomBytes } from 'node:crypto';
import pg from 'pg';

/*
 * A database of a services test's own on the real PostgreSQL (`npm run test:services`; DATABASE_URL,
 * default the machine's local server): created before the test, dropped after it.
 */
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function run(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export function scratchDatabase(prefix: string) {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    create: () => run(`create database ${name}`),
    drop: () => run(`drop database if exists ${name} with (force)`),
  };
}

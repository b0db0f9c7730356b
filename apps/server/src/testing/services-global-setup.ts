import { randomBytes } from 'node:crypto';
import { openDb } from '../store/index.js';
import { migrate } from '../store/index.js';
import { scratchDatabase, TEMPLATE_ENV } from './scratch-database.js';

/*
 * Vitest's global setup for `npm run test:services`: one database on the real PostgreSQL, migrated once
 * per run, that every scratch database is then created from (`CREATE DATABASE ... TEMPLATE`), instead of
 * each file's servers migrating a new one. Dropped at the end of the run.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const template = scratchDatabase(`xtalk_template_${randomBytes(2).toString('hex')}`);
  await template.createEmpty();
  const db = await openDb({ databaseUrl: template.url });
  try {
    await migrate(db);
  } finally {
    // a template cannot be copied while anyone is connected to it
    await db.close();
  }
  process.env[TEMPLATE_ENV] = new URL(template.url).pathname.slice(1);
  return () => template.drop();
}

import { openPglite } from '@xtalk/pglite-engine';
import { dumpWithoutOtherDatabases, runSnapshot, writeRunSnapshot } from '@xtalk/pglite-engine/testing';
import { migrateStandalone } from '../standalone/index.js';

/*
 * The standalone service's embedded database with its tables made, as a tarball every test service starts
 * from: a new PGlite runs initdb (seconds, most of a test service's start); a snapshot is unpacked instead,
 * and the service's own migration at start finds every step done. Made once per run by the payments
 * project's global setup.
 */

const SNAPSHOT_ENV = 'XTALK_PAYMENTS_TEST_DB_SNAPSHOT';

async function makeMigratedSnapshot(): Promise<Uint8Array> {
  const db = await openPglite();
  try {
    await migrateStandalone(db);
    return await dumpWithoutOtherDatabases(db);
  } finally {
    await db.close();
  }
}

/** The run's migrated snapshot, read (or made) once per process. */
export const migratedSnapshot = (): Promise<Uint8Array> => runSnapshot(SNAPSHOT_ENV, makeMigratedSnapshot);

/** Vitest's global setup for the payments project. */
export default function setup(): Promise<() => void> {
  return writeRunSnapshot(SNAPSHOT_ENV, makeMigratedSnapshot);
}

import { openPglite } from '@xtalk/pglite-engine';
import { dumpWithoutOtherDatabases, runSnapshot } from '@xtalk/pglite-engine/testing';
import { pgliteSettings, type Db } from '../store/index.js';
import { migrate } from '../store/index.js';

/*
 * The app's database with every migration applied, as a PGlite data directory tarball that a test's
 * embedded database starts from. A new database runs initdb (seconds, the most of a test server's start)
 * and then every migration; a snapshot is unpacked instead, and `migrate` at start finds nothing left to
 * apply. Vitest's global setup for the server tests makes it once per run and names its file in
 * SNAPSHOT_ENV (testing/global-setup.ts); a process started without it (the bench, a script) makes its own
 * once.
 */

/** The environment variable naming the run's snapshot file. */
export const SNAPSHOT_ENV = 'XTALK_TEST_DB_SNAPSHOT';

/** A new in-memory database, migrated, and its files as a tarball. */
export async function makeMigratedSnapshot(): Promise<Uint8Array> {
  const db = await openPglite({ settings: pgliteSettings() });
  try {
    await migrate(db);
    return await dumpWithoutOtherDatabases(db);
  } finally {
    await db.close();
  }
}

/** The run's migrated snapshot, read (or made) once per process. */
export const migratedSnapshot = (): Promise<Uint8Array> => runSnapshot(SNAPSHOT_ENV, makeMigratedSnapshot);

/**
 * A fresh in-memory database of the app, already migrated: what `openDb({})` and `migrate` give, without
 * their cost. Each call is a database of its own.
 */
export async function openMigratedDb(): Promise<Db> {
  const db = await openPglite({ settings: pgliteSettings(), snapshot: await migratedSnapshot() });
  // checks that the snapshot is of the current migrations (it applies none when it is)
  await migrate(db);
  return db;
}

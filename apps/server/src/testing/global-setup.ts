import { writeRunSnapshot } from '@xtalk/pglite-engine/testing';
import { makeMigratedSnapshot, SNAPSHOT_ENV } from './migrated-database.js';

/*
 * Vitest's global setup for the server's tests: the migrated database every test's embedded database
 * starts from is made here, once per run, before the test files start (testing/migrated-database.ts). The
 * test processes are started after this and inherit the variable that names the file.
 */
export default function setup(): Promise<() => void> {
  return writeRunSnapshot(SNAPSHOT_ENV, makeMigratedSnapshot);
}

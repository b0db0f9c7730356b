import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeMigratedSnapshot, SNAPSHOT_ENV } from './migrated-database.js';

/*
 * Vitest's global setup for the server's tests: the migrated database every test's embedded database
 * starts from is made here, once per run, before the test files start (testing/migrated-database.ts). The
 * test processes are started after this and inherit the variable that names the file.
 */
export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'xtalk-test-db-'));
  const file = join(dir, 'migrated.tar');
  writeFileSync(file, await makeMigratedSnapshot());
  process.env[SNAPSHOT_ENV] = file;
  return () => rmSync(dir, { recursive: true, force: true });
}

import { stat } from 'node:fs/promises';
import { loadConfig } from '../apps/server/src/config.js';
import { takeBackup } from '../apps/server/src/lifecycle/backups.js';

/*
 * `npm run backup -- <file>`: a consistent copy of the database the server runs on, with the server's
 * own environment: from the running server for the embedded database, by pg_dump with DATABASE_URL
 * (docs/backups.md). Exits 1 with the reason when it cannot.
 */

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: npm run backup -- <file>\n');
  process.exit(2);
}
try {
  const config = loadConfig(process.env);
  await takeBackup(config, file);
  const { size } = await stat(file);
  process.stderr.write(`backup written to ${file} (${size} bytes)\n`);
} catch (error) {
  process.stderr.write(`backup failed: ${(error as Error).message}\n`);
  process.exitCode = 1;
}

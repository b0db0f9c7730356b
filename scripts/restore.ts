import { loadConfig } from '../apps/server/src/config.js';
import { restoreBackup } from '../apps/server/src/lifecycle/backups.js';

/*
 * `npm run restore -- <file>`: puts a backup of `npm run backup` back into an empty DATA_DIR (the
 * embedded database) or an empty database at DATABASE_URL, with the server stopped or not yet started
 * on it (docs/backups.md). Refuses anything that already holds data. Exits 1 with the reason.
 */

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: npm run restore -- <file>\n');
  process.exit(2);
}
try {
  const config = loadConfig(process.env);
  await restoreBackup(config, file);
  const where = config.DATABASE_URL ? 'the database at DATABASE_URL' : `DATA_DIR (${config.DATA_DIR})`;
  process.stderr.write(`restored ${file} into ${where}\n`);
} catch (error) {
  process.stderr.write(`restore failed: ${(error as Error).message}\n`);
  process.exitCode = 1;
}

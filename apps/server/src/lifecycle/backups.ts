import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { gunzipSync } from 'node:zlib';
import type { Config } from '../config.js';
import { appliedMigrations, openDb } from '../store/index.js';
import { BACKUP_PATH, BACKUP_TOKEN_FILE } from './backup-route.js';
import { pgDump, pgRestore, tablesIn } from './pg-tools.js';

/*
 * `npm run backup -- <file>` and `npm run restore -- <file>` (decision 0217, docs/backups.md). The
 * embedded database is copied by the server that runs it (backup-route.ts) and restored by unpacking the
 * copy into an empty DATA_DIR; with DATABASE_URL, PostgreSQL's own tools do both. A backup is written
 * beside its file first and renamed into place once whole, so a file by that name is always complete.
 */

export type BackupSettings = Pick<Config, 'DATA_DIR' | 'DATABASE_URL' | 'HOST' | 'PORT'>;

/** What DATA_DIR may hold before a restore: the auth secret put back first, and models (never copied). */
const KEPT_BESIDE_A_RESTORE = new Set(['auth-secret', 'models']);

/** The address of the server on this machine: HOST unless it listens on every address. */
function localServer(settings: BackupSettings): string {
  const host = ['0.0.0.0', '::', ''].includes(settings.HOST) ? '127.0.0.1' : settings.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${settings.PORT}`;
}

/** Flushes a written file to the disk before it is renamed into place. */
async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The running server's copy of its embedded database, gzipped, into `path`. */
async function fetchEmbedded(settings: BackupSettings, path: string, baseUrl?: string): Promise<void> {
  let token: string;
  try {
    token = (await readFile(join(settings.DATA_DIR, BACKUP_TOKEN_FILE), 'utf8')).trim();
  } catch {
    throw new Error(
      `No ${BACKUP_TOKEN_FILE} in DATA_DIR (${settings.DATA_DIR}): is the server running on it, as this user?`,
    );
  }
  const url = `${baseUrl ?? localServer(settings)}${BACKUP_PATH}`;
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok || !response.body) {
    throw new Error(`The server refused the backup (${response.status}): ${await response.text()}`);
  }
  await pipeline(Readable.fromWeb(response.body as ReadableStream<Uint8Array>), createWriteStream(path));
}

/**
 * Writes a backup of the configured database into `file`: with DATABASE_URL by pg_dump, otherwise from
 * the server running on DATA_DIR (at `baseUrl`, by default HOST and PORT on this machine).
 */
export async function takeBackup(settings: BackupSettings, file: string, baseUrl?: string): Promise<void> {
  const partial = `${file}.partial`;
  try {
    if (settings.DATABASE_URL) await pgDump(settings.DATABASE_URL, partial);
    else await fetchEmbedded(settings, partial, baseUrl);
    await syncFile(partial);
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** Refuses a DATA_DIR that holds anything a restore could overwrite or mix with. */
async function checkEmpty(dataDir: string): Promise<void> {
  const entries = await readdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const held = entries.filter((entry) => !KEPT_BESIDE_A_RESTORE.has(entry));
  if (held.length > 0) {
    throw new Error(
      `DATA_DIR (${dataDir}) is not empty (${held.join(', ')}): restore into an empty one, then point the server at it.`,
    );
  }
}

/** Unpacks an embedded backup into DATA_DIR/db and opens it once, so a bad copy fails here, not at start. */
async function restoreEmbedded(dataDir: string, file: string): Promise<void> {
  await checkEmpty(dataDir);
  const bytes = await readFile(file);
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const snapshot = gzipped ? gunzipSync(bytes) : bytes;
  await mkdir(dataDir, { recursive: true });
  try {
    const db = await openDb({ dataDir, snapshot });
    try {
      if ((await appliedMigrations(db)).length === 0) throw new Error('it holds no migrated schema');
    } finally {
      await db.close();
    }
  } catch (error) {
    // it was empty: what this attempt unpacked goes, so the next one finds it empty again
    await rm(join(dataDir, 'db'), { recursive: true, force: true });
    throw new Error(`${file} is not a backup of XTalk's embedded database: ${(error as Error).message}`);
  }
}

/**
 * Restores `file` into the configured database, which must be empty: with DATABASE_URL by pg_restore,
 * otherwise into DATA_DIR.
 */
export async function restoreBackup(settings: BackupSettings, file: string): Promise<void> {
  if (!settings.DATABASE_URL) return restoreEmbedded(settings.DATA_DIR, file);
  const tables = await tablesIn(settings.DATABASE_URL);
  if (tables.length > 0) {
    throw new Error(
      `The database at DATABASE_URL is not empty (${tables.length} tables): restore into a new, empty database.`,
    );
  }
  await pgRestore(settings.DATABASE_URL, file);
}

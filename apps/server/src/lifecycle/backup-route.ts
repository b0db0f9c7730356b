import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { sameText } from '../accounts/index.js';
import { HttpError } from '../http-errors.js';
import type { Db } from '../store/index.js';

/*
 * GET /api/admin/backup: a consistent copy of the embedded database, taken by the server that owns it
 * (decision 0217). PGlite is one process's: nothing else may open or copy its files while it runs, so the
 * copy is PGlite's own dump, taken between two statements after a checkpoint, and streamed gzipped.
 *
 * Who may call it: whoever holds the token this node writes at start into DATA_DIR/backup-token (mode
 * 600), as a bearer token: someone who can read DATA_DIR can already read the database's files, so the
 * route gives no one more than they have. Everyone else is refused, before any work. One copy at a time.
 * With PostgreSQL there is no such route: `npm run backup` calls pg_dump.
 */

export const BACKUP_PATH = '/api/admin/backup';
export const BACKUP_TOKEN_FILE = 'backup-token';

/** A new token for this run, readable by the server's user alone. */
function writeBackupToken(dataDir: string): string {
  const token = randomBytes(32).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, BACKUP_TOKEN_FILE), `${token}\n`, { mode: 0o600 });
  return token;
}

function checkToken(header: string | undefined, token: string): void {
  if (!header) throw new HttpError(401, 'A backup needs the bearer token in DATA_DIR/backup-token.');
  const [scheme, given] = header.split(' ', 2);
  if (scheme?.toLowerCase() !== 'bearer' || !given || !sameText(given, token))
    throw new HttpError(403, 'That token does not open backups.');
}

/** Registers the route when the database is the embedded one; nothing with PostgreSQL. */
export function backupRoute(app: FastifyInstance, deps: { db: Db; dataDir: string }): void {
  const { db } = deps;
  const dump = db.dumpDataDir;
  if (db.kind !== 'pglite' || !dump) return;
  const token = writeBackupToken(deps.dataDir);
  let taking = false;
  app.get(BACKUP_PATH, { schema: { hide: true } }, async (request, reply) => {
    checkToken(request.headers.authorization, token);
    if (taking) throw new HttpError(429, 'A backup is being taken; try again when it is done.');
    taking = true;
    try {
      // a restored copy then starts without replaying the log since the last checkpoint
      await db.query('checkpoint');
      const tarball = await dump();
      const body = Readable.from([Buffer.from(tarball.buffer, tarball.byteOffset, tarball.byteLength)]);
      return reply
        .type('application/gzip')
        .header('cache-control', 'no-store')
        .header('content-disposition', 'attachment; filename="xtalk-backup.tar.gz"')
        .send(body.pipe(createGzip()));
    } finally {
      taking = false;
    }
  });
}

import { MessageChannel } from 'node:worker_threads';

/*
 * PGlite's file bundle, let go of once PostgreSQL runs (docs/decisions/0132).
 *
 * PGlite ships a PostgreSQL installation's files (`pglite.data`, 6.2 MB) and reads them into one buffer at
 * start; every file in its in-memory file system is a view into that buffer, so all of it stays resident
 * for as long as any one file is kept. Most of it is read by initdb alone (which runs in a child process for
 * a server: open.ts), or only by features this server does not use. This keeps the files a running database
 * can still open — time zones, the PL/pgSQL language, configuration samples, and anything not named below —
 * in buffers of their own, removes the rest, and detaches the big buffer, so that PGlite's own references to
 * it (its loader keeps one) hold nothing.
 */

/** The part of Emscripten's FS this needs. */
export interface BundleFs {
  readdir(path: string): string[];
  lookupPath(path: string, options?: { follow?: boolean }): { node: BundleFsNode };
  isDir(mode: number): boolean;
  isFile(mode: number): boolean;
  isMountpoint(node: BundleFsNode): boolean;
  unlink(path: string): void;
  rmdir(path: string): void;
}
interface BundleFsNode {
  mode: number;
  contents?: unknown;
}

/**
 * What a running chat server never reads, and why. A query that needed one of these would fail with
 * PostgreSQL's own error ("could not access file" for a library, "could not open file" for the rest);
 * none of the server's does (its whole test suite runs with them gone).
 */
const NOT_NEEDED_ONCE_RUNNING: ReadonlyArray<{ path: RegExp; why: string }> = [
  {
    path: /^\/pglite\/share\/postgresql\/(postgres\.bki|information_schema\.sql|system_\w+\.sql|sql_features\.txt|snowball_create\.sql)$/,
    why: 'read by initdb only',
  },
  { path: /^\/pglite\/locale-a$/, why: "initdb's `locale -a`" },
  {
    path: /^\/pglite\/share\/postgresql\/extension\//,
    why: 'CREATE EXTENSION (PL/pgSQL is installed by initdb)',
  },
  { path: /^\/pglite\/lib\/postgresql\/pgxs\//, why: 'building extensions' },
  { path: /^\/pglite\/lib\/postgresql\/(libpqwalreceiver|pgoutput)\.so$/, why: 'replication' },
  {
    path: /^\/pglite\/lib\/postgresql\/(dict_snowball\.so$|.*_and_.*\.so$|euc2004_sjis2004\.so$)/,
    why: 'full-text search dictionaries; conversions between encodings (client and server are both UTF-8)',
  },
  { path: /^\/pglite\/share\/postgresql\/tsearch_data\//, why: 'full-text search dictionaries' },
  { path: /^\/pglite\/icu\//, why: 'ICU collations (the database uses the C collation)' },
];

export function notNeededOnceRunning(path: string): boolean {
  return NOT_NEEDED_ONCE_RUNNING.some((rule) => rule.path.test(path));
}

export interface BundleRelease {
  /** Files given a buffer of their own. */
  kept: number;
  /** Files removed. */
  removed: number;
  /** The size of the buffer let go of (0 if none was found). */
  bytes: number;
}

/**
 * Copies the files to keep, removes the others and detaches the bundle's buffer. `known` is a file the
 * bundle holds (its buffer is the bundle); nothing changes if it is not there or not a view of one buffer.
 */
export function releaseFsBundle(
  fs: BundleFs,
  known = '/pglite/share/postgresql/postgres.bki',
): BundleRelease {
  const bundle = bufferOf(fs, known);
  if (!bundle) return { kept: 0, removed: 0, bytes: 0 };
  let kept = 0;
  let removed = 0;
  const visit = (dir: string) => {
    for (const name of fs.readdir(dir)) {
      if (name === '.' || name === '..') continue;
      const path = `${dir}/${name}`;
      const { node } = fs.lookupPath(path, { follow: false });
      // a mount point is the data directory (or another file system): nothing of the bundle is in it
      if (fs.isMountpoint(node)) continue;
      if (fs.isDir(node.mode)) {
        visit(path);
        // only a directory a rule names is read again, to see whether it is now empty
        if (notNeededOnceRunning(`${path}/`) && fs.readdir(path).length === 2) fs.rmdir(path);
        continue;
      }
      if (!fs.isFile(node.mode) || !(node.contents instanceof Uint8Array)) continue;
      if (node.contents.buffer !== bundle) continue;
      if (notNeededOnceRunning(path)) {
        fs.unlink(path);
        removed++;
      } else {
        node.contents = node.contents.slice();
        kept++;
      }
    }
  };
  for (const root of ['/home', '/pglite']) visit(root);
  const bytes = bundle.byteLength;
  discard(bundle);
  return { kept, removed, bytes };
}

/**
 * Frees a buffer's memory now, whoever still refers to it. Transferred, the buffer is detached (PGlite's
 * loader keeps a reference to it for good, which then holds nothing) and its memory moves into the
 * message; a message to a closed port is dropped, and its memory with it, without waiting for a garbage
 * collection.
 */
function discard(buffer: ArrayBuffer): void {
  const { port1, port2 } = new MessageChannel();
  port2.close();
  port1.postMessage(null, [buffer]);
  port1.close();
}

function bufferOf(fs: BundleFs, path: string): ArrayBuffer | undefined {
  try {
    const { contents } = fs.lookupPath(path).node;
    if (contents instanceof Uint8Array && contents.buffer instanceof ArrayBuffer) return contents.buffer;
  } catch {
    // not there: a PGlite whose bundle is laid out differently
  }
  return undefined;
}

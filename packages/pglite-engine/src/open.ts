import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inProcessEngine, threadEngine, type PgliteEngine } from './engine.js';
import { createLanes, type Lane } from './lanes.js';

/** A statement's runner: the whole connection, or one transaction's handle. */
export interface Queryable {
  query<Row extends object = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: Row[] }>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** One lane of the connection: statements and transactions, in the lane's turn. */
export interface PgliteLane {
  readonly kind: 'pglite';
  query: Queryable['query'];
  /** Runs `fn` in one transaction; rolls back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}

/** An embedded PostgreSQL: the foreground lane, the background lane, and its end. */
export interface EmbeddedPglite extends PgliteLane {
  /** Work that can wait: handed over only while no foreground work waits (lanes.ts). */
  readonly background: PgliteLane;
  /**
   * The data directory as an uncompressed tarball, taken between statements: a later `openPglite` starts
   * from it as `snapshot` (a test suite migrates once and starts every test's database from that).
   */
  dumpDataDir(): Promise<Uint8Array>;
  close(): Promise<void>;
  /** Settles with the reason if the database thread dies while open; never for a deliberate close. */
  readonly lost: Promise<Error>;
}

export interface PgliteOptions {
  /** The data directory; undefined keeps the database in memory, in this thread (tests). */
  dir?: string | undefined;
  /** PostgreSQL settings as `-c name=value` start parameters, added after PGlite's own. */
  settings?: string[];
  /**
   * A tarball from `dumpDataDir` to start a new database from, instead of initialising an empty one
   * (initdb, most of a new database's start). Ignored for a data directory that already holds a database.
   */
  snapshot?: Uint8Array | undefined;
}

/**
 * A fresh data directory is initialised (initdb) by a short-lived child process: initdb's own WASM
 * instance and its buffers are large, and V8 gives them back to the OS only much later, so done in-process
 * they would dominate the process's memory from its start.
 */
async function initialiseInChild(dir: string): Promise<void> {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script =
    'const { PGlite } = require(process.argv[1]);' +
    'PGlite.create(process.argv[2]).then((db) => db.query("select 1").then(() => db.close()))' +
    '.catch((error) => { console.error(error); process.exit(1); });';
  await promisify(execFile)(process.execPath, ['-e', script, entry, dir], { timeout: 120_000 });
}

/**
 * Opens PGlite: over a data directory on a thread of its own, so its file writes and query work never
 * stall the caller's thread; in memory in this thread, where it starts faster. PGlite is one connection:
 * every statement and transaction goes through the lanes, so a statement never lands inside another
 * caller's open transaction.
 */
export async function openPglite(options: PgliteOptions = {}): Promise<EmbeddedPglite> {
  const { dir, settings = [] } = options;
  let snapshot = options.snapshot;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    if (existsSync(join(dir, 'PG_VERSION'))) snapshot = undefined;
    else if (!snapshot) await initialiseInChild(dir);
  }
  const engine = dir
    ? await threadEngine(dir, settings, snapshot)
    : await inProcessEngine(undefined, settings, snapshot);
  const enqueue = createLanes();
  const lane = (name: Lane): PgliteLane => ({
    kind: 'pglite',
    query: (sql, params) => enqueue(name, false, () => engine.query(sql, params) as never),
    transaction: (fn) => enqueue(name, true, () => inTransaction(engine, fn)),
  });
  return {
    ...lane('foreground'),
    background: lane('background'),
    dumpDataDir: () => enqueue('foreground', true, () => engine.dump()),
    close: () => enqueue('foreground', true, () => engine.close()),
    lost: engine.lost,
  };
}

/**
 * BEGIN, the caller's statements, COMMIT; ROLLBACK if any throws. The handle refuses use after the end, so
 * a statement a caller forgot to await cannot land in whoever's work comes next on the connection.
 */
async function inTransaction<T>(engine: PgliteEngine, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  let open = true;
  const guard = () => {
    if (!open) throw new Error('This transaction has already ended.');
  };
  await engine.exec('begin');
  try {
    const result = await fn({
      query: async (sql, params) => {
        guard();
        return engine.query(sql, params) as never;
      },
      exec: async (sql) => {
        guard();
        await engine.exec(sql);
      },
    });
    open = false;
    await engine.exec('commit');
    return result;
  } catch (error) {
    if (open) {
      open = false;
      await engine.exec('rollback');
    }
    throw error;
  }
}

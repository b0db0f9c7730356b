import { Worker } from 'node:worker_threads';
import { releaseFsBundle, type BundleFs } from './bundle.js';
import { preparedStatements } from './statements.js';

/**
 * What open.ts needs of PGlite: run one statement, run a script, close. In this thread (in-memory
 * databases) or on a worker thread of its own (a data directory).
 */
export interface PgliteEngine {
  query(sql: string, params?: unknown[]): Promise<{ rows: object[] }>;
  exec(sql: string): Promise<void>;
  /** The data directory as an uncompressed tarball, for `snapshot` of a later start. */
  dump(): Promise<Uint8Array>;
  close(): Promise<void>;
  /**
   * Settles with the reason if the database is lost while open (its thread died): from then on every call
   * fails with that reason. Never settles in-process, nor for a deliberate close.
   */
  readonly lost: Promise<Error>;
}

/** The engine on a thread, with that thread (tests end it to see what a dying thread does). */
export type ThreadEngine = PgliteEngine & { readonly thread: Pick<Worker, 'terminate'> };

const never = new Promise<Error>(() => undefined);

/** What the worker is started with. */
export interface EngineStart {
  dir: string | undefined;
  /** PostgreSQL settings (`-c name=value` pairs), added after PGlite's own start parameters. */
  settings: string[];
  /** A data directory tarball (`dump`) to start from instead of an empty one; for a new directory only. */
  snapshot?: Uint8Array | undefined;
}
export type EngineRequest =
  | { id: number; op: 'query'; sql: string; params?: unknown[] | undefined }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' };
/** Id 0 answers the start: ready, or why not. */
export interface EngineReply {
  id: number;
  rows?: object[];
  tarball?: Uint8Array;
  error?: { message: string; [field: string]: string | number | boolean };
}

/**
 * PGlite in the calling thread. `settings` are added after PGlite's own start parameters. PGlite is loaded
 * here, on first use, not when this module is: a caller that runs it on a thread only starts the worker,
 * and loading PGlite's JavaScript in its thread would hold heap for nothing.
 */
export async function inProcessEngine(
  dir: string | undefined,
  settings: string[],
  snapshot?: Uint8Array,
): Promise<PgliteEngine> {
  const pglite = await import('@electric-sql/pglite');
  const startParams = [...pglite.PGlite.defaultStartParams, ...settings];
  // a snapshot is unpacked instead of running initdb, the bulk of a new database's start
  const loadDataDir = snapshot && tarballOf(snapshot);
  const db = dir
    ? await pglite.PGlite.create(dir, { startParams, loadDataDir })
    : await pglite.PGlite.create({ startParams, loadDataDir });
  // PostgreSQL has started: the installation files only initdb and unused features read can go (bundle.ts)
  releaseFsBundle(db.Module.FS as unknown as BundleFs);
  const statements = preparedStatements(db, pglite);
  // one call at a time, in the order made, as the worker thread does: the lanes hand several statements
  // over at once, and PGlite's protocol calls must not overlap
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const turn = queue.then(work);
    queue = turn.catch(() => undefined);
    return turn;
  };
  return {
    query: (sql, params) => inTurn(() => statements.query(sql, params)),
    exec: (sql) => inTurn(async () => void (await db.exec(sql))),
    dump: () => inTurn(async () => new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer())),
    close: () => inTurn(() => db.close()),
    lost: never,
  };
}

/**
 * The snapshot as the tarball PGlite's `loadDataDir` reads: it asks only for its type and its bytes, so
 * these are handed over as they are. A `Blob` would copy the tarball in and read it back out in chunks,
 * a good part of a test database's start.
 */
function tarballOf(snapshot: Uint8Array): Blob {
  const whole = snapshot.byteOffset === 0 && snapshot.byteLength === snapshot.buffer.byteLength;
  const bytes = whole ? snapshot.buffer : snapshot.slice().buffer;
  return { type: 'application/x-tar', arrayBuffer: () => Promise.resolve(bytes) } as Blob;
}

/**
 * The thread's young generation (where V8 allocates new objects) is held small: left to grow, it swelled
 * while PGlite started, nearly empty afterwards, and the pages stayed resident.
 * What the thread allocates per statement (a request, its rows) is short-lived and small, so the smaller
 * space only means more frequent, cheap scavenges.
 */
const resourceLimits = { maxYoungGenerationSizeMb: 4 };

/**
 * The worker. Bundled, this module lives inside the caller's bundle, and worker.ts is expected beside it
 * as `pglite-worker.js` (a bundler builds it as a second entry). Run from source (tests, a dev server), a
 * two-line bootstrap registers tsx in the thread first, as a thread does not inherit the loader.
 */
function startWorker(workerData: EngineStart): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./pglite-worker.js', import.meta.url), { workerData, resourceLimits });
  const source = new URL('./worker.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(bootstrap, { eval: true, workerData, resourceLimits });
}

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

function errorOf(reply: NonNullable<EngineReply['error']>): Error {
  return Object.assign(new Error(reply.message), reply);
}

/**
 * PGlite on its own thread. The lanes may hand over several statements at once; the thread runs them
 * in the order sent, and each reply is matched to its call by id. If the thread dies, every waiting and later
 * call fails with the reason instead of hanging.
 */
export async function threadEngine(
  dir: string,
  settings: string[],
  snapshot?: Uint8Array,
): Promise<ThreadEngine> {
  const worker = startWorker({ dir, settings, snapshot });
  const waiting = new Map<
    number,
    { resolve: (reply: EngineReply) => void; reject: (error: Error) => void }
  >();
  let nextId = 1;
  let dead: Error | undefined;
  let closing = false;
  let announceLost: (error: Error) => void = () => undefined;
  const lost = new Promise<Error>((resolve) => (announceLost = resolve));
  const fail = (error: Error) => {
    if (!dead && !closing) announceLost(error);
    dead ??= error;
    for (const { reject } of waiting.values()) reject(dead);
    waiting.clear();
  };
  worker.on('message', (reply: EngineReply) => {
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (!pending) return;
    if (reply.error) pending.reject(errorOf(reply.error));
    else pending.resolve(reply);
  });
  worker.on('error', (error) => fail(new Error(`The database thread failed: ${error.message}`)));
  worker.on('exit', (code) => fail(new Error(`The database thread has stopped (exit ${code}).`)));

  // id 0 is the worker's answer to its start: ready, or why it could not open the database
  const ready = new Promise<EngineReply>((resolve, reject) => waiting.set(0, { resolve, reject }));
  const ask = (request: DistributiveOmit<EngineRequest, 'id'>) =>
    new Promise<EngineReply>((resolve, reject) => {
      if (dead) return reject(dead);
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });

  await ready.catch(async (error: unknown) => {
    await worker.terminate();
    throw error;
  });
  return {
    query: async (sql, params) => ({ rows: (await ask({ op: 'query', sql, params })).rows ?? [] }),
    exec: async (sql) => void (await ask({ op: 'exec', sql })),
    dump: async () => (await ask({ op: 'dump' })).tarball ?? new Uint8Array(),
    close: async () => {
      closing = true;
      // a thread already gone has nothing left to close
      if (dead) return void (await worker.terminate());
      try {
        await ask({ op: 'close' });
      } finally {
        await worker.terminate();
      }
    },
    lost,
    thread: worker,
  };
}

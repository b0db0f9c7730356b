import { setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { runInNewContext } from 'node:vm';
import {
  inProcessEngine,
  type EngineReply,
  type EngineRequest,
  type EngineStart,
  type PgliteEngine,
} from './engine.js';

/*
 * PGlite on a thread of its own (docs/decisions/0118): the caller's thread hands it statements
 * (threadEngine in engine.ts, several at once through the lanes) and goes on with its own work
 * while PostgreSQL parses, plans and writes here. They run and are answered in the order they came.
 */

/*
 * PostgreSQL's WASM stays on V8's baseline compiler, Liftoff (docs/decisions/0119). By default V8 recompiles
 * the functions that run hot with TurboFan on background threads (dynamic tiering); for PGlite at start that
 * compile work leaves glibc malloc arenas resident in the server (freed, not given back), and the
 * optimised code does not make statements cheaper, while starting PGlite and migrating costs about half
 * the CPU without it (the measurements: docs/notes/0119). Either flag alone leaves TurboFan a way in: both
 * are needed. V8's flags are per process; these are set before PGlite compiles its module (PGlite.create
 * below); the server's only other WASM, undici's HTTP parser, is small.
 */
setFlagsFromString('--no-wasm-tier-up');
setFlagsFromString('--no-wasm-dynamic-tiering');

const port = parentPort!;
const { dir, settings, snapshot } = workerData as EngineStart;

/** A database error's fields (code, constraint, detail...) are kept: callers branch on `code`. */
function plainError(error: unknown): EngineReply['error'] {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(error)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value as string;
  }
  return { ...fields, message: error.message, name: error.name };
}

/** One request, answered with its id; the engine runs calls in the order they are made. */
async function answer(engine: PgliteEngine, request: EngineRequest): Promise<void> {
  try {
    if (request.op === 'query') {
      const { rows } = await engine.query(request.sql, request.params);
      port.postMessage({ id: request.id, rows } as EngineReply);
      return;
    }
    if (request.op === 'dump') {
      const tarball = await engine.dump();
      port.postMessage({ id: request.id, tarball } as EngineReply, [tarball.buffer as ArrayBuffer]);
      return;
    }
    if (request.op === 'exec') await engine.exec(request.sql);
    else await engine.close();
    port.postMessage({ id: request.id } satisfies EngineReply);
    if (request.op === 'close') port.close();
  } catch (error) {
    port.postMessage({ id: request.id, error: plainError(error) } satisfies EngineReply);
  }
}

/**
 * One full garbage collection. `gc` exists only with --expose-gc, so the flag is set just long enough to
 * take the function from a fresh context, then cleared again.
 */
function collectGarbageOnce(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  setFlagsFromString('--no-expose-gc');
  gc?.();
}

try {
  // the same engine as in-process (prepared statements, one call at a time in order), here on this thread
  const engine = await inProcessEngine(dir, settings, snapshot);
  // One full collection once PGlite has started here, as the main thread has once it listens (0119): the
  // buffer PGlite read pglite.wasm into is garbage once compiled, but this thread allocates little
  // while idle, so it could stay resident for minutes (docs/decisions/0132).
  collectGarbageOnce();
  port.on('message', (request: EngineRequest) => void answer(engine, request));
  port.postMessage({ id: 0 } satisfies EngineReply);
} catch (error) {
  port.postMessage({ id: 0, error: plainError(error) } satisfies EngineReply);
}

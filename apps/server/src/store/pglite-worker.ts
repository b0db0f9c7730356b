import { parentPort, workerData } from 'node:worker_threads';
import {
  inProcessEngine,
  type EngineReply,
  type EngineRequest,
  type EngineStart,
  type PgliteEngine,
} from './pglite-engine.js';

/*
 * PGlite on a thread of its own (docs/decisions/0118): the server's main thread hands it statements
 * (threadEngine in pglite-engine.ts, several at once through db.ts's lanes) and goes on with its sockets
 * while PostgreSQL parses, plans, writes and fsyncs here. They run and are answered in the order they came.
 */

const port = parentPort!;
const { dir, startParams } = workerData as EngineStart;

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
    if (request.op === 'exec') await engine.exec(request.sql);
    else await engine.close();
    port.postMessage({ id: request.id } satisfies EngineReply);
    if (request.op === 'close') port.close();
  } catch (error) {
    port.postMessage({ id: request.id, error: plainError(error) } satisfies EngineReply);
  }
}

try {
  // the same engine as in-process (prepared statements, one call at a time in order), here on this thread
  const engine = await inProcessEngine(dir, startParams);
  port.on('message', (request: EngineRequest) => void answer(engine, request));
  port.postMessage({ id: 0 } satisfies EngineReply);
} catch (error) {
  port.postMessage({ id: 0, error: plainError(error) } satisfies EngineReply);
}

import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { preparedStatements } from './pglite-statements.js';
import type { EngineReply, EngineRequest, EngineStart } from './pglite-engine.js';

/*
 * PGlite on a thread of its own (docs/decisions/0118): the server's main thread hands it one statement at
 * a time (pglite-thread.ts) and goes on with its sockets while PostgreSQL parses, plans, writes and fsyncs
 * here. Statements are answered in the order they came; none ever runs inside another's await.
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

try {
  const db = await PGlite.create(dir, { startParams });
  const statements = preparedStatements(db);
  let queue = Promise.resolve();
  port.on('message', (request: EngineRequest) => {
    queue = queue.then(async () => {
      try {
        if (request.op === 'close') {
          await db.close();
          port.postMessage({ id: request.id } satisfies EngineReply);
          port.close();
          return;
        }
        if (request.op === 'exec') {
          await db.exec(request.sql);
          port.postMessage({ id: request.id } satisfies EngineReply);
          return;
        }
        const { rows } = await statements.query(request.sql, request.params);
        port.postMessage({ id: request.id, rows } as EngineReply);
      } catch (error) {
        port.postMessage({ id: request.id, error: plainError(error) } satisfies EngineReply);
      }
    });
  });
  port.postMessage({ id: 0 } satisfies EngineReply);
} catch (error) {
  port.postMessage({ id: 0, error: plainError(error) } satisfies EngineReply);
}

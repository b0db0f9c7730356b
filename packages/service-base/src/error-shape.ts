import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { schemaRefusalOf, type SchemaRefusal } from './route-schemas.js';

/*
 * One error shape for every HTTP answer: `{ statusCode, error, message }` (plus `code` where one is
 * given), JSON, never a stack trace. A 4xx keeps its message (it tells the client what to fix); so does a
 * 5xx raised on purpose. Any other 5xx is logged with its stack and answered with a fixed sentence: its
 * message may carry internals.
 */

export const INTERNAL_MESSAGE = 'Something went wrong on the server; please try again.';

interface ErrorLike {
  statusCode?: unknown;
  status?: unknown;
  message?: unknown;
  code?: unknown;
}

function statusOf(error: ErrorLike): number {
  const status = Number(error.statusCode ?? error.status);
  return Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500;
}

export function errorBody(statusCode: number, message: string, code?: string) {
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    message,
    ...(code ? { code } : {}),
  };
}

export interface ErrorShapeOptions {
  /** Whether a 5xx was raised on purpose, so its message is meant for the client. */
  deliberate(error: unknown): boolean;
  /** The code an error without one of its own answers with; unset: none. */
  codeOf?(statusCode: number): string;
  /** The code of the fixed sentence that answers an unexpected failure; unset: none. */
  internalCode?: string;
  /** The code of a request that failed its route's schema; unset: the one `codeOf` gives a 400. */
  refusalCode?(refusal: SchemaRefusal, request: FastifyRequest): string | undefined;
}

/** Answers every error of `app`'s scope that no inner scope answered in the shape above. */
export function registerErrorShape(app: FastifyInstance, options: ErrorShapeOptions): void {
  app.setErrorHandler((error: FastifyError | ErrorLike, request, reply) => {
    const refusal = schemaRefusalOf(error);
    if (refusal) {
      const code = options.refusalCode?.(refusal, request) ?? options.codeOf?.(400);
      return reply
        .code(400)
        .type('application/json')
        .send(errorBody(400, refusal.message, code));
    }
    const statusCode = statusOf(error);
    if (statusCode >= 500 && !options.deliberate(error)) {
      request.log.error({ err: error }, 'request failed');
      return reply
        .code(statusCode)
        .type('application/json')
        .send(errorBody(statusCode, INTERNAL_MESSAGE, options.internalCode));
    }
    const message =
      typeof error.message === 'string' && error.message !== '' ? error.message : 'Invalid request.';
    // Fastify's own codes (FST_ERR_CTP_INVALID_JSON_BODY...) say little to a client; a route's own code does
    const own = typeof error.code === 'string' && !error.code.startsWith('FST_') ? error.code : undefined;
    return reply
      .code(statusCode)
      .type('application/json')
      .send(errorBody(statusCode, message, own ?? options.codeOf?.(statusCode)));
  });
}

import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError } from '../http-errors.js';

/*
 * One error shape for every HTTP answer: `{ statusCode, error, message }` (plus `code` where a route adds
 * one), JSON, never a stack trace. A 4xx keeps its message (it tells the client what to fix); so does a
 * 5xx we raised on purpose (an HttpError: 'Sign-in is not configured', 'could not start the checkout').
 * Any other 5xx is logged with its stack and answered with a fixed sentence: its message may carry
 * internals.
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

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ErrorLike, request, reply) => {
    const statusCode = statusOf(error);
    if (statusCode >= 500 && !(error instanceof HttpError)) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(statusCode).type('application/json').send(errorBody(statusCode, INTERNAL_MESSAGE));
    }
    const message =
      typeof error.message === 'string' && error.message !== '' ? error.message : 'Invalid request.';
    // Fastify's own codes (FST_ERR_CTP_INVALID_JSON_BODY...) say little to a client; a route's own code does
    const code = typeof error.code === 'string' && !error.code.startsWith('FST_') ? error.code : undefined;
    return reply
      .code(statusCode)
      .type('application/json')
      .send(errorBody(statusCode, message, code));
  });
}

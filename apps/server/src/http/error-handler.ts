import type { FastifyInstance } from 'fastify';
import { httpErrorCodeOf } from '@xtalk/protocol';
import { registerErrorShape, useZodSchemas } from '@xtalk/service-base';
import { HttpError } from '../http-errors.js';

/*
 * One error shape for every HTTP answer (`@xtalk/service-base`): a 5xx keeps its message only when it was
 * raised on purpose, an HttpError ('Sign-in is not configured', 'could not start the checkout'); an error
 * carries a code only where a route gave it one. Routes declare their schemas (decision 0223); a request
 * that fails one is answered here.
 */

export { INTERNAL_MESSAGE } from '@xtalk/service-base';

export function registerErrorHandler(app: FastifyInstance): void {
  useZodSchemas(app);
  registerErrorShape(app, {
    deliberate: (error) => error instanceof HttpError,
    // a route may word a schema issue more finely (a short password); else `bad_request`
    refusalCode: (refusal, request) =>
      request.routeOptions.config.issueCode?.(refusal) ?? httpErrorCodeOf(400),
  });
}

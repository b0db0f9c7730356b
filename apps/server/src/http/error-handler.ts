import type { FastifyInstance } from 'fastify';
import { registerErrorShape } from '@xtalk/service-base';
import { HttpError } from '../http-errors.js';

/*
 * One error shape for every HTTP answer (`@xtalk/service-base`): a 5xx keeps its message only when it was
 * raised on purpose, an HttpError ('Sign-in is not configured', 'could not start the checkout'); an error
 * carries a code only where a route gave it one.
 */

export { INTERNAL_MESSAGE } from '@xtalk/service-base';

export function registerErrorHandler(app: FastifyInstance): void {
  registerErrorShape(app, { deliberate: (error) => error instanceof HttpError });
}

import type { FastifyInstance } from 'fastify';
import { createLogSampler } from '../log-sampler.js';

/*
 * One line per HTTP request, once it is answered, in place of Fastify's two (incoming, completed): the
 * request (its URL's secrets hidden by the `req` serializer), the status and the time taken. A refusal
 * (a 4xx: over a limit, not found, not allowed; or a 503 while draining) is something a client can cause
 * at will, so its lines are sampled per address and status like the socket refusals: a flood of 429s
 * writes a few lines and then how many were left out. Every request is still counted in /metrics.
 */

function refused(statusCode: number): boolean {
  return (statusCode >= 400 && statusCode < 500) || statusCode === 503;
}

export function registerRequestLog(app: FastifyInstance): void {
  const sampled = createLogSampler(app.log);
  app.addHook('onResponse', async (request, reply) => {
    const { statusCode } = reply;
    const fields = { req: request, res: { statusCode }, responseTime: Math.round(reply.elapsedTime) };
    if (refused(statusCode))
      sampled.info(`http-${statusCode}`, { reqId: request.id, ...fields }, 'request refused', request.ip);
    else request.log.info(fields, 'request completed');
  });
}

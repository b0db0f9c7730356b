import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';

/**
 * Log lines for events a client can cause at will (refused frames, refused sockets): the first of a kind
 * is logged, then at most one line per `intervalMs` per kind, carrying how many were left out. One sampler
 * serves the whole process, so a flood from many sockets is as quiet as one from a single socket.
 */
export function createLogSampler(logger: FastifyBaseLogger, clock: Clock, intervalMs = 10_000) {
  const kinds = new Map<string, { lastAt: number; suppressed: number }>();
  return {
    info(kind: string, fields: Record<string, unknown>, message: string): void {
      const now = clock.now();
      const state = kinds.get(kind);
      if (state && now - state.lastAt < intervalMs) {
        state.suppressed++;
        return;
      }
      const suppressed = state?.suppressed ?? 0;
      kinds.set(kind, { lastAt: now, suppressed: 0 });
      logger.info({ ...fields, ...(suppressed > 0 ? { suppressed } : {}) }, message);
    },
  };
}
export type LogSampler = ReturnType<typeof createLogSampler>;

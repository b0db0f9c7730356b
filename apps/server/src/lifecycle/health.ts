import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiPath, ApiTag } from '@xtalk/protocol';
import { z } from 'zod';
import type { Bus } from '../bus/index.js';
import type { RoomHub } from '../delivery/index.js';
import type { FairRooms } from '../messages/index.js';
import type { Db } from '../store/index.js';

/**
 * GET /api/health: a node without its bus still serves its own rooms (from the log) and says so; a node
 * that lost its embedded database serves nothing, answers 503 with the reason, and stops (server.ts).
 */
export function healthRoute(
  app: FastifyInstance,
  deps: { db: Db; bus: Bus; redis: Redis | undefined; hub: RoomHub; fairRooms: FairRooms },
) {
  const { db, bus, redis, hub, fairRooms } = deps;
  let dbLost: Error | undefined;
  void db.lost?.then((error) => (dbLost = error));
  const schema = {
    tags: [ApiTag.health],
    summary: 'Liveness, with what this node holds',
    response: {
      // the room and queue counts that follow are the node's own and may grow
      200: z.looseObject({
        ok: z.literal(true),
        status: z.enum(['ok', 'degraded']),
        db: z.string(),
        bus: z.enum(['redis', 'memory']),
        busConnected: z.boolean(),
      }),
      503: z.object({ ok: z.literal(false), status: z.literal('down'), db: z.string(), error: z.string() }),
    },
  };
  app.get(ApiPath.health, { schema }, async (_request, reply) => {
    if (dbLost)
      return reply.code(503).send({ ok: false, status: 'down', db: db.kind, error: dbLost.message });
    const busUp = bus.isConnected?.() ?? true;
    return {
      ok: true,
      status: busUp ? 'ok' : 'degraded',
      db: db.kind,
      bus: redis ? 'redis' : 'memory',
      busConnected: busUp,
      ...hub.stats(),
      ...fairRooms.stats(),
    };
  });
}

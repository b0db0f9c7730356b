import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiPath } from '@xtalk/protocol';
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
  app.get(ApiPath.health, async (_request, reply) => {
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

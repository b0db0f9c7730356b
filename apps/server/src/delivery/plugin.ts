import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import { withMemoryFallback } from './presence-fallback.js';
import { nodeShares } from './presence-nodes.js';
import { createMemoryPresence, createRedisPresence, type Presence } from './presence.js';
import { createRoomHub, type RoomHub } from './room-hub.js';

/*
 * The delivery: the room hub and presence. Translation, glossary, the balance frames and the message path
 * send through them, so they come before all of those; the gateway, which serves them to sockets, after.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** A room's frames, fanned out to its sockets on every node. */
    xtalkHub: RoomHub;
    /** Who listens in which language in each room, across nodes. */
    xtalkPresence: Presence;
    /** This process in the shared presence counts (presence-nodes.ts). */
    xtalkNodeId: string;
  }
}

export const deliveryPlugin = fp(
  async (app) => {
    const redis = app.xtalkRedis;
    const redisOutage = app.xtalkRedisOutage;
    // this process's share of the shared presence counts, taken back out should it die (presence-nodes.ts)
    const nodeId = randomUUID();
    app.decorate('xtalkNodeId', nodeId);
    app.decorate(
      'xtalkPresence',
      redis && redisOutage
        ? withMemoryFallback(createRedisPresence(redis, nodeShares(nodeId)), redisOutage)
        : createMemoryPresence(),
    );
    const options = { log: app.xtalkRooms.log, logger: app.log, metrics: app.xtalkMetrics?.report };
    app.decorate('xtalkHub', createRoomHub(app.xtalkBus, options));
  },
  { name: 'xtalk-delivery', dependencies: ['xtalk-bus', 'xtalk-rooms', 'xtalk-metrics'] },
);

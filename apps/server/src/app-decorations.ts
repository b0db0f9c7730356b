import type { ConnectionDeps } from './realtime/connection.js';
import type { Db } from './store/db.js';

/*
 * What `buildApp` decorates the Fastify instance with, declared through Fastify's declaration merging so
 * `app.xtalkDb` is typed wherever the app is (no casts).
 */
declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The app's database. Modules receive what they need through their factories instead; this is the
     * seam tests use (as `TestServer.db`) to arrange state no API writes yet.
     */
    xtalkDb: Db;
    /**
     * Drains the node (SIGTERM, lifecycle/drain.ts): not ready, new sockets and joins refused, sockets
     * closed with 1012 over `spreadMs` (DRAIN_SECONDS by default). `close()` follows it.
     */
    xtalkDrain: (spreadMs?: number) => Promise<void>;
    /**
     * What every connection of this node is made with: tests make connections over fake sockets with it
     * (thousands of members without a socket each), through the real hub, presence and announcer.
     */
    xtalkConnectionDeps: ConnectionDeps;
  }
}

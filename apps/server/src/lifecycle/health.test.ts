import Fastify from 'fastify';
import { checkAnswers, useZodSchemas } from '@xtalk/service-base';
import { ApiPath } from '@xtalk/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../bus/index.js';
import { createRoomHub } from '../delivery/index.js';
import { createFairRooms } from '../messages/index.js';
import type { Db } from '../store/index.js';
import { openMigratedDb } from '../testing/migrated-database.js';
import { healthRoute } from './health.js';

/* GET /api/health says whether this node can serve: 200 while its database is there, 503 once it is lost. */
describe('health', () => {
  const open: Array<{ close(): Promise<unknown> }> = [];
  afterEach(async () => {
    for (const each of open.splice(0)) await each.close();
  });

  async function healthOf(db: Db) {
    const app = Fastify();
    // the routes declare zod schemas, which the product's app compiles (http/error-handler.ts); the
    // answers are checked against them as in every route test (decision 0253)
    app.addHook('onRoute', checkAnswers);
    useZodSchemas(app);
    open.push(app);
    const bus = createMemoryBus();
    healthRoute(app, {
      db,
      bus,
      redis: undefined,
      hub: createRoomHub(bus),
      fairRooms: createFairRooms({ concurrency: 1, maxQueuedPerRoom: 1 }),
    });
    return app.inject({ url: ApiPath.health });
  }

  it('answers 200 and ok while the database is there', async () => {
    const db = await openMigratedDb();
    open.push(db);
    const reply = await healthOf(db);
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({ ok: true, status: 'ok', db: 'pglite' });
  });

  it('answers 503 with the reason once the database is lost', async () => {
    const db = await openMigratedDb();
    open.push(db);
    const reason = new Error('The database thread has stopped (exit 1).');
    const reply = await healthOf({ ...db, lost: Promise.resolve(reason) });
    expect(reply.statusCode).toBe(503);
    expect(reply.json()).toEqual({ ok: false, status: 'down', db: 'pglite', error: reason.message });
  });
});

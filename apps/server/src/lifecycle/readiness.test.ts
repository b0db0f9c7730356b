import Fastify from 'fastify';
import { checkAnswers, useZodSchemas } from '@xtalk/service-base';
import { ApiPath, CloseCode } from '@xtalk/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createMemoryBus } from '../bus/index.js';
import { loadConfig } from '../config.js';
import type { Db } from '../store/index.js';
import { guestLogin, joinRoom, startServer, TestClient } from '../testing/harness.js';
import { migratedSnapshot, openMigratedDb } from '../testing/migrated-database.js';
import { registerReadiness } from './readiness.js';

/* GET /api/health/ready: 200 only while the node takes work; 503 with the reason otherwise. */
describe('readiness', { timeout: 90_000 }, () => {
  const open: Array<{ close(): Promise<unknown> }> = [];
  afterEach(async () => {
    for (const each of open.splice(0).reverse()) await each.close();
  });

  it('says starting until the app listens, then ready; liveness answers throughout', async () => {
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', AI_PROVIDER: 'fake', LOG_LEVEL: 'silent' }),
      inMemoryDb: true,
      databaseSnapshot: await migratedSnapshot(),
      logger: false,
    });
    open.push(app);
    const starting = await app.inject({ url: ApiPath.healthReady });
    expect(starting.statusCode).toBe(503);
    expect(starting.json()).toMatchObject({ ok: false, reason: 'starting' });
    expect((await app.inject({ url: ApiPath.health })).statusCode).toBe(200);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const ready = await app.inject({ url: ApiPath.healthReady });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ok: true, status: 'ready' });
    // readable from a page on another origin: a client away from its room's home asks it (decision 0237)
    for (const answer of [starting, ready])
      expect(answer.headers).toMatchObject({
        'access-control-allow-origin': '*',
        'cross-origin-resource-policy': 'cross-origin',
      });
  });

  async function readinessOf(db: Db, busUp: boolean) {
    const app = Fastify();
    // the routes declare zod schemas, which the product's app compiles (http/error-handler.ts); the
    // answers are checked against them as in every route test (decision 0253)
    app.addHook('onRoute', checkAnswers);
    useZodSchemas(app);
    open.push(app);
    const bus = { ...createMemoryBus(), isConnected: () => busUp };
    const readiness = registerReadiness(app, { db, bus, redisConfigured: true });
    readiness.ready();
    return app.inject({ url: ApiPath.healthReady });
  }

  it('says database while the database is lost, redis while Redis is down', async () => {
    const db = await openMigratedDb();
    open.push(db);
    expect((await readinessOf(db, true)).statusCode).toBe(200);
    const lost = await readinessOf({ ...db, lost: Promise.resolve(new Error('gone')) }, true);
    expect(lost.statusCode).toBe(503);
    expect(lost.json()).toMatchObject({ ok: false, reason: 'database' });
    const redisDown = await readinessOf(db, false);
    expect(redisDown.statusCode).toBe(503);
    expect(redisDown.json()).toMatchObject({ ok: false, reason: 'redis', reasons: ['redis'] });
    const bothDown = await readinessOf({ ...db, lost: Promise.resolve(new Error('gone')) }, false);
    expect(bothDown.statusCode).toBe(503);
    expect(bothDown.json()).toMatchObject({
      reason: 'database',
      reasons: ['database', 'redis'],
      message: 'The database is unreachable. Redis is unreachable.',
    });
  });

  it('while draining: 503 draining, joins and sockets refused with retry-after, sockets closed with 1012', async () => {
    const server = await startServer();
    open.push(server);
    const { app } = server;
    const alice = await guestLogin(app);
    const { roomId } = await joinRoom(app, alice.token, null);
    const clients = await Promise.all([1, 2, 3].map(() => TestClient.join(server, alice, roomId)));
    const spare = await joinRoom(app, alice.token, roomId);

    const drained = app.xtalkDrain(2000);
    const ready = await app.inject({ url: ApiPath.healthReady });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ ok: false, reason: 'draining' });
    const join = await app.inject({
      method: 'POST',
      url: ApiPath.join,
      headers: { authorization: `Bearer ${alice.token}` },
      payload: { action: 'join', roomId },
    });
    expect(join.statusCode).toBe(503);
    expect(join.headers['retry-after']).toBe('1');
    expect(join.json()).toMatchObject({ code: 'unavailable' });
    const refused = TestClient.open(`${server.wsBase}${ApiPath.socket(spare.sessionId)}?t=${alice.token}`);
    await expect(refused).rejects.toMatchObject({ statusCode: 503 });

    await drained;
    expect(await Promise.all(clients.map((client) => client.closed()))).toEqual(
      clients.map(() => CloseCode.ServiceRestart),
    );
  });
});

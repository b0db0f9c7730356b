import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath } from '@xtalk/protocol';
import { judge } from '../../../../scripts/chaos/verdict.js';
import { startFlakyProxy, type FlakyProxy } from '../testing/flaky-proxy.js';
import { freePort } from '../testing/free-port.js';
import { chatNodeOf, guestLogin, joinRoom, startServer, type TestServer } from '../testing/harness.js';
import { startRedis, stopRedis } from '../testing/redis-server.js';
import { ResumingClient } from '../testing/resuming-client.js';
import { seeded, sleep } from '../testing/seeded.js';
import { scratchDatabase } from '../testing/scratch-database.js';

/*
 * `npm run test:services`: PostgreSQL, then Redis, then both go away under a two-node cluster while
 * clients on both nodes chat, and come back. The database is reached through a proxy the test stops (the
 * shared PostgreSQL never is), the Redis is the test's own. Meanwhile each node stays live and says which
 * part is down; a chat it cannot store is refused with an error frame naming its clientId, never
 * acknowledged. After each outage both nodes turn ready again without a restart, every acknowledged
 * message reaches every client once and in order, and new messages flow.
 */
const SEED = Number(process.env.FAULT_SEED ?? 35);
const CLIENTS = 4;
const OUTAGE_MS = 3000;

const database = scratchDatabase('xtalk_outage');

describe('PostgreSQL and Redis go away under two nodes and come back', () => {
  let redis: ChildProcess | undefined;
  let redisPort: number;
  let proxy: FlakyProxy;
  const nodes: TestServer[] = [];

  beforeAll(async () => {
    await database.create();
    proxy = await startFlakyProxy(Number(new URL(database.url).port || 5432));
    const url = new URL(database.url);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    const env = {
      DATABASE_URL: url.toString(),
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      AUTH_SECRET: 'outage-test-secret-shared-by-both-nodes',
      LANGUAGES: 'en',
      RESUME_MAX_EVENTS: '100000',
    };
    nodes.push(...(await Promise.all([startServer(env), startServer(env)])));
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(nodes.map((node) => node.close()));
    await proxy?.close();
    if (redis) await stopRedis(redis);
    await database.drop();
  }, 60_000);

  const ready = (node: TestServer) => node.app.inject({ method: 'GET', url: ApiPath.healthReady });
  const live = async (node: TestServer) =>
    (await node.app.inject({ method: 'GET', url: ApiPath.health })).statusCode;

  /** Every node answers readiness with `status` (and every reason while unready), and stays live. */
  async function everyNodeSays(status: 200 | 503, reasons?: Array<'database' | 'redis'>) {
    for (const node of nodes) {
      await expect
        .poll(
          async () => {
            const response = await ready(node);
            return { status: response.statusCode, reasons: response.json<{ reasons?: string[] }>().reasons };
          },
          { timeout: 15_000, interval: 100 },
        )
        .toEqual({ status, reasons });
      expect(await live(node)).toBe(200);
    }
  }

  it('refuses or stores every chat, stays live, says what is down and recovers', async () => {
    const random = seeded(SEED);
    const logins = await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) => guestLogin(nodes[i % 2]!.app)),
    );
    const { roomId } = await joinRoom(nodes[0]!.app, logins[0]!.token, null);
    // a client stays on its node: an outage is the cluster's, not a node's, so it has nowhere else to go
    const clients = logins.map(
      (login, i) => new ResumingClient(login, roomId, [chatNodeOf(nodes[i % 2]!)], random),
    );
    await Promise.all(clients.map((client) => client.connect()));
    await expect.poll(() => clients.every((client) => client.isReady), { timeout: 10_000 }).toBe(true);

    let said = 0;
    async function chatFor(count: number) {
      for (let n = 0; n < count; n++) {
        clients[n % CLIENTS]!.say(`message ${++said}`);
        await sleep(40 + random() * 80);
      }
    }
    const redisBack = async () => void (redis = await startRedis(redisPort));
    const outages: {
      name: string;
      reasons: Array<'database' | 'redis'>;
      down(): Promise<void>;
      up(): Promise<void>;
    }[] = [
      { name: 'postgresql', reasons: ['database'], down: () => proxy.stop(), up: () => proxy.start() },
      {
        name: 'redis',
        reasons: ['redis'],
        down: () => stopRedis(redis!),
        up: redisBack,
      },
      {
        name: 'both',
        reasons: ['database', 'redis'],
        down: async () => void (await Promise.all([proxy.stop(), stopRedis(redis!)])),
        up: async () => void (await Promise.all([proxy.start(), redisBack()])),
      },
    ];
    await everyNodeSays(200);
    for (const outage of outages) {
      await chatFor(8);
      const started = performance.now();
      await outage.down();
      await everyNodeSays(503, outage.reasons);
      await chatFor(8);
      await sleep(Math.max(0, OUTAGE_MS - (performance.now() - started)));
      await outage.up();
      await everyNodeSays(200);
      await chatFor(8);
      console.log(`outage ${outage.name}: ${Math.round(performance.now() - started)} ms, said ${said}`);
    }

    // every outbox empties and every client reaches the room's last offset
    const state = () =>
      clients.map((c) => `outbox ${c.outbox.size} offset ${c.lastOffset} connects ${c.connects}`).join('; ');
    await expect
      .poll(() => clients.every((client) => client.outbox.size === 0), { timeout: 30_000, interval: 100 })
      .toBe(true)
      .catch((error: unknown) => {
        throw new Error(`outboxes did not empty: ${state()}`, { cause: error });
      });
    const rows = await database.query<{ client_id: string; seq: string }>(
      'select client_id, seq from messages where room_id = $1 order by seq',
      [roomId],
    );
    const stored = rows.map((row) => ({ clientId: row.client_id, seq: Number(row.seq) }));
    const [room] = await database.query<{ last_seq: string }>('select last_seq from rooms where id = $1', [
      roomId,
    ]);
    const last = Number(room!.last_seq);
    await expect
      .poll(() => clients.every((client) => client.lastOffset === last), { timeout: 30_000 })
      .toBe(true)
      .catch((error: unknown) => {
        throw new Error(`clients did not reach offset ${last}: ${state()}`, { cause: error });
      });

    const refusals = clients.flatMap((client) => client.errors);
    console.log(
      `database outage (seed ${SEED}): said ${said}, stored ${stored.length}, refusals ${refusals.length} ` +
        `[${[...new Set(refusals.map((frame) => frame.type === 'error' && frame.code))].join(', ')}], ` +
        `reconnects ${clients.reduce((sum, c) => sum + c.connects - 1, 0)}`,
    );
    // a refusal names the chat it refuses and says why: too fast, or the database is away
    for (const frame of refusals) {
      expect(['rate_limited', 'unavailable']).toContain(frame.type === 'error' && frame.code);
      expect(frame).toMatchObject({
        type: 'error',
        clientId: expect.any(String),
        message: expect.any(String),
      });
    }
    expect(judge(clients, stored, said)).toEqual({
      messages: said,
      acknowledged: said,
      unacknowledged: 0,
      lost: 0,
      doubled: 0,
      outOfOrder: 0,
    });
    expect(stored).toHaveLength(said);
    for (const client of clients) expect(client.resyncs).toBe(0);
    for (const client of clients) client.stop();
  }, 180_000);
});

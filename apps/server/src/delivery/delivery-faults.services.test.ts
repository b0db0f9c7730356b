import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../testing/free-port.js';
import { chatNodeOf, guestLogin, joinRoom, startServer, type TestServer } from '../testing/harness.js';
import { ResumingClient } from '../testing/resuming-client.js';
import { startRedis, stopRedis } from '../testing/redis-server.js';
import { seeded, sleep } from '../testing/seeded.js';
import { scratchDatabase } from '../testing/scratch-database.js';

/*
 * The delivery fault test (`npm run test:services`): clients on two nodes chat while the test stops
 * and restarts a node, drops sockets at random and restarts a Redis server it started itself. Seeded and
 * bounded. At the end every acknowledged message is stored exactly once and every client saw every
 * message exactly once, in order.
 */
const SEED = Number(process.env.FAULT_SEED ?? 16);
const CYCLES = 4;
const MESSAGES_PER_CYCLE = 24;
const CLIENTS = 4;

const database = scratchDatabase('xtalk_faults');

describe('delivery under faults: two nodes, PostgreSQL, a Redis of its own', () => {
  let redis: ChildProcess;
  let redisPort: number;
  let env: Record<string, string>;
  const nodes: (TestServer | undefined)[] = [undefined, undefined];

  beforeAll(async () => {
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    await database.create();
    env = {
      DATABASE_URL: database.url,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      AUTH_SECRET: 'fault-test-secret-shared-by-both-nodes',
      LANGUAGES: 'en',
      RESUME_MAX_EVENTS: '100000',
    };
    [nodes[0], nodes[1]] = await Promise.all([startServer(env), startServer(env)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(nodes.map((node) => node?.close()));
    if (redis) await stopRedis(redis);
    await database.drop();
  }, 60_000);

  it('stores every acknowledged message once and delivers each to every client once, in order', async () => {
    const random = seeded(SEED);
    const up = () => nodes.filter((node): node is TestServer => node !== undefined);
    const upNodes = () => up().map(chatNodeOf);
    const logins = await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) => guestLogin(nodes[i % 2]!.app)),
    );
    const { roomId } = await joinRoom(nodes[0]!.app, logins[0]!.token, null);
    const clients = logins.map((login) => new ResumingClient(login, roomId, upNodes, random));
    await Promise.all(clients.map((client) => client.connect()));
    await expect.poll(() => clients.every((client) => client.isReady), { timeout: 10_000 }).toBe(true);

    let sent = 0;
    async function chatFor(count: number) {
      for (let n = 0; n < count; n++) {
        const client = clients[Math.floor(random() * clients.length)]!;
        client.say(`message ${++sent}`);
        // a socket drops now and then, mid-conversation
        if (random() < 0.12) clients[Math.floor(random() * clients.length)]!.drop();
        await sleep(40 + random() * 80);
      }
    }

    const faults: string[] = [];
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      await chatFor(MESSAGES_PER_CYCLE / 2);
      if (cycle % 2 === 0) {
        // a node goes away while people talk, and comes back
        const index = Math.floor(random() * 2);
        const closing = nodes[index]!.close();
        nodes[index] = undefined;
        await Promise.all([closing, chatFor(MESSAGES_PER_CYCLE / 4)]);
        nodes[index] = await startServer(env);
        faults.push(`node ${index} restarted`);
      } else {
        // the bus goes away while people talk, and comes back on the same port
        await stopRedis(redis);
        const node = up()[0]!;
        await expect
          .poll(async () => (await node.app.inject({ method: 'GET', url: '/api/health' })).json(), {
            timeout: 10_000,
          })
          .toMatchObject({ status: 'degraded', busConnected: false });
        // joining during the outage works on a node (its own rooms keep going from the log)
        const joiner = new ResumingClient(
          await guestLogin(node.app),
          roomId,
          () => [chatNodeOf(node)],
          random,
        );
        await joiner.connect();
        await expect.poll(() => joiner.isReady, { timeout: 10_000 }).toBe(true);
        joiner.stop();
        await chatFor(MESSAGES_PER_CYCLE / 4);
        redis = await startRedis(redisPort);
        await expect
          .poll(async () => (await node.app.inject({ method: 'GET', url: '/api/health' })).json(), {
            timeout: 10_000,
          })
          .toMatchObject({ status: 'ok', busConnected: true });
        faults.push('redis restarted');
      }
      await chatFor(MESSAGES_PER_CYCLE / 4);
    }

    // everyone's outbox empties and everyone reaches the room's last offset
    const lastSeq = async () =>
      Number(
        (await database.query<{ last_seq: string }>('select last_seq from rooms where id = $1', [roomId]))[0]!
          .last_seq,
      );
    const state = () =>
      clients
        .map(
          (c) => `outbox ${c.outbox.size} ready ${c.isReady} offset ${c.lastOffset} connects ${c.connects}`,
        )
        .join('; ');
    await expect
      .poll(() => clients.every((client) => client.outbox.size === 0), { timeout: 30_000, interval: 100 })
      .toBe(true)
      .catch((error: unknown) => {
        throw new Error(`outboxes did not empty: ${state()}`, { cause: error });
      });
    const last = await lastSeq();
    await expect
      .poll(() => clients.every((client) => client.lastOffset === last), { timeout: 30_000, interval: 100 })
      .toBe(true);

    const stored = await database.query<{ client_id: string; seq: string; text: string }>(
      'select client_id, seq, text from messages where room_id = $1 order by seq',
      [roomId],
    );
    const acknowledged = clients.flatMap((client) => [...client.acknowledged]);
    const storedIds = stored.map((row) => row.client_id);
    const lost = acknowledged.filter((id) => !storedIds.includes(id)).length;
    const storedTwice = storedIds.length - new Set(storedIds).size;
    const expected = stored.map((row) => row.text);
    const deliveredDuplicates = clients.reduce((sum, client) => sum + client.duplicates, 0);
    const gaps = clients.reduce((sum, client) => sum + client.gaps, 0);
    const missedByClients = clients.reduce(
      (sum, client) => sum + expected.length - client.received.length,
      0,
    );
    console.log(
      `delivery faults (seed ${SEED}): cycles ${CYCLES} [${faults.join(', ')}], messages ${sent}, ` +
        `stored ${stored.length}, acknowledged ${acknowledged.length}, deliveries ${clients.reduce((s, c) => s + c.received.length, 0)}, ` +
        `reconnects ${clients.reduce((s, c) => s + c.connects - 1, 0)}, lost ${lost + missedByClients + gaps}, ` +
        `duplicated ${storedTwice + deliveredDuplicates}`,
    );
    expect(stored).toHaveLength(sent);
    expect(acknowledged).toHaveLength(sent);
    expect(lost).toBe(0);
    expect(storedTwice).toBe(0);
    expect(stored.map((row) => Number(row.seq))).toEqual(stored.map((_, i) => i + 1));
    for (const client of clients) {
      expect(client.received.map((frame) => frame.message)).toEqual(expected);
      expect(client.gaps).toBe(0);
      expect(client.duplicates).toBe(0);
      expect(client.resyncs).toBe(0);
    }
    for (const client of clients) client.stop();
  }, 180_000);
});

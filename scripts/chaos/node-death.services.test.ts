import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemFrame } from '@xtalk/protocol';
import { ResumingClient } from '../../apps/server/src/testing/resuming-client.js';
import { seeded, sleep } from '../../apps/server/src/testing/seeded.js';
import { guestLogin, joinRoom } from '../../bench/lib/guest.js';
import { percentile } from '../../bench/lib/stats.js';
import { Cluster } from './cluster.js';
import { judge, type StoredMessage } from './verdict.js';

/*
 * `npm run test:services`: a node dies under chat. Three server processes (from source, no build) on
 * PostgreSQL and a Redis of their own, clients spread over them through one list of endpoints, one room
 * spanning all three. One node gets SIGKILL. Its clients go on to the next endpoint and resume by offset;
 * every acknowledged message reaches every member once, in order; the other members see no LEAVE or JOIN
 * of those who came back, only the LEAVE of the one who did not (when the node's heartbeat runs out),
 * and the room's presence counts are exactly who is there. It logs, per client, how long from the kill
 * to the next message delivered.
 */

const SEED = Number(process.env.NODE_DEATH_SEED ?? 35);
const NODES = 3;
const CLIENTS_PER_NODE = 4;
/** Short, so the dead node's share is swept while the test waits. */
const NODE_TTL_SECONDS = 3;
const VICTIM = 1;

const cluster = new Cluster({
  nodes: NODES,
  build: 'source',
  env: { NODE_TTL_SECONDS: String(NODE_TTL_SECONDS), LEAVE_GRACE_SECONDS: '5' },
});

const names = (frame: SystemFrame) => frame.usernames ?? (frame.username ? [frame.username] : []);

describe('a node dies: three nodes, PostgreSQL, a Redis of their own', () => {
  beforeAll(() => cluster.start(), 120_000);
  afterAll(() => cluster.stop(), 60_000);

  it('moves its clients to the next endpoint, loses and doubles nothing, and heals presence', async () => {
    const random = seeded(SEED);
    const endpoints = cluster.up();
    const logins = [];
    for (let i = 0; i < NODES * CLIENTS_PER_NODE; i++) logins.push(await guestLogin(endpoints[0]!.baseUrl));
    const { roomId } = await joinRoom(endpoints[0]!.baseUrl, logins[0]!.token, null);
    // client i starts on endpoint i % 3: each node holds a third of the room
    const clients = logins.map((login, i) => new ResumingClient(login, roomId, endpoints, random, i));
    await Promise.all(clients.map((client) => client.connect()));
    await expect.poll(() => clients.every((client) => client.isReady), { timeout: 20_000 }).toBe(true);
    const victims = clients.filter((_, i) => i % NODES === VICTIM);
    const others = clients.filter((_, i) => i % NODES !== VICTIM);
    // one of the dead node's members does not come back: the room must see them leave
    const gone = victims[0]!;
    const returners = victims.slice(1);
    const returnerNames = new Set(returners.map((client) => client.login.user.username));
    const live = clients.filter((client) => client !== gone);

    let said = 0;
    let chatting = true;
    const chat = (async () => {
      while (chatting) {
        live[Math.floor(random() * live.length)]!.say(`message ${++said}`);
        await sleep(30 + random() * 40);
      }
    })();
    await sleep(1000);

    // presence is counted from here on (the joins' frames came well before)
    const presenceBefore = others.map((client) => client.presence.length);
    gone.abandon();
    const killedAt = performance.now();
    await cluster.kill(VICTIM);
    await expect.poll(() => returners.every((client) => client.isReady), { timeout: 20_000 }).toBe(true);
    // the room sees the one who stayed away leave, once the dead node's heartbeat has run out
    const goneName = gone.login.user.username;
    const leftAfterKill = (client: ResumingClient, index: number) =>
      client.presence
        .slice(presenceBefore[index])
        .filter((frame) => frame.message === 'LEAVE')
        .flatMap(names);
    await expect
      .poll(() => others.every((client, i) => leftAfterKill(client, i).includes(goneName)), {
        timeout: (NODE_TTL_SECONDS + 15) * 1000,
      })
      .toBe(true);
    chatting = false;
    await chat;

    expect(await cluster.settle(live, roomId, 30_000)).toBe(true);
    const stored = await cluster.query<{ client_id: string; seq: string }>(
      'select client_id, seq from messages where room_id = $1 order by seq',
      [roomId],
    );
    const verdict = judge(
      live,
      stored.map((row): StoredMessage => ({ clientId: row.client_id, seq: Number(row.seq) })),
      said,
    );

    const resumeMs = (client: ResumingClient) => client.receivedAt.find((at) => at > killedAt)! - killedAt;
    const figures = (group: ResumingClient[]) => {
      const sorted = group.map(resumeMs).sort((a, b) => a - b);
      return `p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p99 ${percentile(sorted, 0.99).toFixed(0)} ms`;
    };
    console.log(
      `node death (seed ${SEED}): ${NODES} nodes, ${clients.length} clients, messages ${said}, ` +
        `stored ${stored.length}, lost ${verdict.lost}, doubled ${verdict.doubled}, ` +
        `out of order ${verdict.outOfOrder}; kill -> next delivered message: dead node's clients ` +
        `${figures(returners)}, the others' ${figures(others)}`,
    );
    expect(verdict).toMatchObject({ lost: 0, doubled: 0, outOfOrder: 0, unacknowledged: 0 });
    expect(verdict.acknowledged).toBe(said);
    for (const client of live) expect(client.resyncs).toBe(0);
    // the returners moved on to the next endpoint after the dead one
    for (const client of returners) expect(client.openedOn.at(-1)).toBe(endpoints[VICTIM + 1]);

    // no LEAVE/JOIN storm: the others saw nothing of those who came back
    for (const [i, client] of others.entries()) {
      const seen = client.presence.slice(presenceBefore[i]).flatMap(names);
      expect(seen.filter((name) => returnerNames.has(name))).toEqual([]);
    }
    // presence heals: the shared counts are exactly who is in the room, one connection each
    const redis = new Redis(cluster.redisUrl);
    try {
      const counts = await redis.hgetall(`xtalk:presence:${roomId}`);
      const expected = Object.fromEntries(live.map((client) => [client.login.user.username, '1']));
      expect(counts).toEqual(expected);
    } finally {
      redis.disconnect();
    }
    for (const client of clients) client.stop();
  }, 180_000);
});

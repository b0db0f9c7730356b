import { PROTOCOL_VERSION, type ServerFrame } from '@xtalk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlakyProxy, type FlakyProxy } from '../testing/flaky-proxy.js';
import {
  guestLogin,
  joinRoom,
  presenceOf,
  roomBarrier,
  startServer,
  TestClient,
  type TestServer,
} from '../testing/harness.js';
import { serviceNodes } from '../testing/service-nodes.js';

/*
 * `npm run test:services`: node A loses Redis for longer than its TTL and node B sweeps it (who was only
 * on A leaves, in B's members' eyes); when Redis is back, A writes its shares again and the people that
 * brings back join again for B's members. A's own members, who never saw them leave, see each real join
 * once: the one before the outage, and one made during it, at once, on A alone.
 */
const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
// a logical database of its own: another file's nodes on the same Redis would sweep A too, and these
// nodes theirs
const DATABASE = '/14';
const services = serviceNodes('xtalk_swept_joins', 0, {
  REDIS_URL: `redis://${redisUrl.host}${DATABASE}`,
  NODE_TTL_SECONDS: '1',
});
let proxy: FlakyProxy;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  proxy = await startFlakyProxy(Number(redisUrl.port || 6379));
  a = await startServer({ ...services.env, REDIS_URL: `redis://127.0.0.1:${proxy.port}${DATABASE}` });
  b = await startServer(services.env);
  services.nodes.push(a, b);
});
afterAll(async () => {
  await proxy.close();
});

const hello = { protocolVersion: PROTOCOL_VERSION };
const joinsOf = (client: { frames: ServerFrame[] }, username: string) =>
  client.frames.filter(presenceOf('JOIN', username)).length;

describe('a swept node that writes its presence back', { timeout: 60_000 }, () => {
  it("announces who it brings back to the other nodes' members only", async () => {
    const [zed, yu, ann, bob] = await Promise.all([a, b, a, a].map((node) => guestLogin(node.app)));
    const { roomId } = await joinRoom(a.app, zed!.token, null);
    const onA = await TestClient.join(a, zed!, roomId, 'en', hello);
    const onB = await TestClient.join(b, yu!, roomId, 'en', hello);
    const annOnA = await TestClient.join(a, ann!, roomId, 'en', hello);
    await Promise.all([onA, onB].map((client) => client.next(presenceOf('JOIN', ann!.user.username))));

    await proxy.stop();
    // B sweeps A once A's beat has expired: Ann, only on A, leaves in B's members' eyes
    await onB.next(presenceOf('LEAVE', ann!.user.username), 15_000);
    // Bob comes while A counts alone; A's members see him at once
    const bobOnA = await TestClient.join(a, bob!, roomId, 'en', hello);
    await onA.next(presenceOf('JOIN', bob!.user.username), 10_000);

    await proxy.start();
    // A's write-back: both are back for B's members
    await onB.next(presenceOf('JOIN', bob!.user.username), 15_000);
    await expect.poll(() => joinsOf(onB, ann!.user.username), { timeout: 15_000 }).toBe(2);
    const [marker] = await roomBarrier(onB, roomId, [onA]);
    const before = { frames: onA.framesBefore(marker!) };
    expect([joinsOf(before, ann!.user.username), joinsOf(before, bob!.user.username)]).toEqual([1, 1]);
    expect([joinsOf(onB, ann!.user.username), joinsOf(onB, bob!.user.username)]).toEqual([2, 1]);
    for (const client of [onA, onB, annOnA, bobOnA]) client.close();
  });
});

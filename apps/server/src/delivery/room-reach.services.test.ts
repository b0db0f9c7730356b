import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { MessageFrame, SystemFrame } from '@xtalk/protocol';
import { guestLogin, joinRoom, TestClient, type TestServer } from '../testing/harness.js';
import { serviceNodes } from '../testing/service-nodes.js';

/*
 * A room whose members share one node never touches Redis; a member arriving on another node misses
 * nothing (decision 0236). Redis's MONITOR counts the PUBLISH commands on the room's channel: a monitor
 * is no subscriber, so watching changes nothing the nodes see.
 */
const services = serviceNodes('xtalk_reach', 2, {
  WS_CHAT_PER_SECOND: '1000',
  WS_CHAT_BURST: '1000',
  WS_FRAMES_PER_SECOND: '1000',
  WS_FRAME_BURST: '1000',
});
let a: TestServer;
let b: TestServer;
let monitor: Redis;
const published: string[] = [];
beforeAll(async () => {
  [a, b] = services.nodes as [TestServer, TestServer];
  const redis = new Redis(services.env.REDIS_URL!, { lazyConnect: true });
  await redis.connect();
  monitor = await redis.monitor();
  monitor.on('monitor', (_time: string, args: string[]) => {
    if (args[0]?.toLowerCase() === 'publish' && args[1]) published.push(args[1]);
  });
});
afterAll(() => monitor?.disconnect());

const V7 = { protocolVersion: 7 };
const chat = (message: string, roomId: string) => ({ type: 'chat', language: 'en', message, room: roomId });
const isMessage = (text: string) => (frame: { type: string; message?: string }) =>
  frame.type === 'message' && frame.message === text;
const publishesTo = (roomId: string) => published.filter((channel) => channel === `xtalk:room:${roomId}`);

describe('room reach on two nodes (decision 0236)', () => {
  it('publishes nothing for a room whose members share a node, and reaches a member who joins elsewhere', async () => {
    const [alice, bob, carol] = await Promise.all([guestLogin(a.app), guestLogin(a.app), guestLogin(b.app)]);
    const { roomId } = await joinRoom(a.app, alice.token, null);
    const atA = await TestClient.join(a, alice, roomId, 'en', V7);
    const bobAtA = await TestClient.join(a, bob, roomId, 'en', V7);
    atA.send(chat('first', roomId));
    await bobAtA.next(isMessage('first'));

    const before = publishesTo(roomId).length;
    for (let i = 0; i < 20; i++) atA.send(chat(`local ${i}`, roomId));
    await bobAtA.next(isMessage('local 19'));
    // a fence: Redis monitors commands in the order it runs them, so once the fence is seen, so is
    // every PUBLISH the messages above caused
    await b.app.xtalkBus.publish('xtalk:reach-test-fence', Buffer.from('fence'));
    await waitFor(() => published.includes('xtalk:reach-test-fence'));
    expect(publishesTo(roomId).length - before).toBe(0);

    const carolAtB = await TestClient.join(b, carol, roomId, 'en', V7);
    atA.send(chat('across', roomId));
    await carolAtB.next(isMessage('across'));
    carolAtB.send(chat('back', roomId));
    await atA.next(isMessage('back'));
    for (const client of [atA, bobAtA, carolAtB]) client.close();
  });

  it('gives a member who joins on another node mid-stream every message once, in order', async () => {
    const [alice, carol] = await Promise.all([guestLogin(a.app), guestLogin(b.app)]);
    const { roomId } = await joinRoom(a.app, alice.token, null);
    const atA = await TestClient.join(a, alice, roomId, 'en', V7);
    atA.send(chat('m 0', roomId));
    const first = await atA.next<MessageFrame>(isMessage('m 0'));
    const ready = atA.frames.find(
      (frame) => frame.type === 'system' && frame.message === 'READY',
    ) as SystemFrame;

    const count = 60;
    const sending = (async () => {
      for (let i = 1; i <= count; i++) {
        atA.send(chat(`m ${i}`, roomId));
        if (i % 3 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const carolAtB = await TestClient.join(b, carol, roomId, 'en', {
      ...V7,
      resume: { epoch: ready.epoch!, offset: first.offset! },
    });
    await sending;
    await carolAtB.next(isMessage(`m ${count}`), 10_000);
    const seen = carolAtB.messages().map((frame) => frame.message);
    expect(seen).toEqual(Array.from({ length: count }, (_, i) => `m ${i + 1}`));
    for (const client of [atA, carolAtB]) client.close();
  });
});

async function waitFor(done: () => boolean) {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(done()).toBe(true);
}

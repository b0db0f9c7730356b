import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SystemFrame } from '@xtalk/protocol';
import { guestLogin, joinRoom, presenceOf, startServer, TestClient, type TestServer } from './harness.js';
import { scratchDatabase } from './scratch-database.js';

/*
 * `npm run test:services`: the LEAVE grace (decision 0140) across two nodes on PostgreSQL and Redis. The
 * presence count it relies on is Redis's, so a reload that lands on the other node is as quiet as one that
 * lands on the same.
 */
const database = scratchDatabase('xtalk_grace');
const env = {
  DATABASE_URL: database.url,
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  AUTH_SECRET: 'services-test-secret-shared-by-both-nodes',
  LEAVE_GRACE_SECONDS: '1.5',
};
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  await database.create();
  [a, b] = await Promise.all([startServer(env), startServer(env)]);
});
afterAll(async () => {
  await Promise.allSettled([a?.close(), b?.close()]);
  await database.drop();
});

it('shows no LEAVE or JOIN for someone whose socket moved to the other node within the grace', async () => {
  const [alice, bob, carol] = [await guestLogin(a.app), await guestLogin(a.app), await guestLogin(b.app)];
  const { roomId } = await joinRoom(a.app, alice.token, null);
  const atA = await TestClient.join(a, alice, roomId);
  const bobAtA = await TestClient.join(a, bob, roomId);
  const carolAtB = await TestClient.join(b, carol, roomId);
  // each node coalesces its own JOINs: Bob's (node A) may come after Carol's (node B)
  await atA.next(presenceOf('JOIN', bob.user.username));
  await atA.next(presenceOf('JOIN', carol.user.username));
  const mark = atA.frames.length;

  bobAtA.close();
  await bobAtA.closed();
  const bobAtB = await TestClient.join(b, bob, roomId);
  // Carol leaves after Bob's move: her LEAVE, a grace later, follows the end of Bob's grace on node A
  carolAtB.close();
  const carolLeft = await atA.next<SystemFrame>(presenceOf('LEAVE', carol.user.username), 10_000);
  const between = atA.framesBefore(carolLeft).slice(mark);
  expect(between.filter(presenceOf('LEAVE', bob.user.username))).toEqual([]);
  expect(between.filter(presenceOf('JOIN', bob.user.username))).toEqual([]);

  // Bob, now on node B, really leaves: announced on node A
  bobAtB.close();
  await atA.next(presenceOf('LEAVE', bob.user.username), 10_000);
  atA.close();
});

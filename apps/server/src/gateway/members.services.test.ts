import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { PROTOCOL_VERSION, type MemberListFrame } from '@xtalk/protocol';
import { createRedisPresence, nodeShares } from '../delivery/index.js';
import { guestLogin, joinRoom, presenceOf, TestClient } from '../testing/harness.js';
import { setDisplayName } from '../testing/seed/index.js';
import { serviceNodes } from '../testing/service-nodes.js';

/*
 * `npm run test:services`: a room's member list, on request, from every node (PostgreSQL and Redis):
 * the names of members connected to the other node are listed with their display names, and a list
 * longer than a page is walked by its cursors to the end, everyone once.
 */

const services = serviceNodes('xtalk_members', 2);
const current = { protocolVersion: PROTOCOL_VERSION };

describe('members across nodes', () => {
  it('lists the members on both nodes, with their display names', async () => {
    const [a, b] = services.nodes as [(typeof services.nodes)[0], (typeof services.nodes)[0]];
    const [ann, bob, cat] = await Promise.all([guestLogin(a.app), guestLogin(b.app), guestLogin(b.app)]);
    const { roomId } = await joinRoom(a.app, ann.token, null);
    const atA = await TestClient.join(a, ann, roomId, 'en', current);
    const bobAtB = await TestClient.join(b, bob, roomId, 'en', current);
    const catAtB = await TestClient.join(b, cat, roomId, 'ja', current);
    // a JOIN is announced once node B has counted the person in Redis
    await atA.next(presenceOf('JOIN', bob.user.username));
    await atA.next(presenceOf('JOIN', cat.user.username));
    atA.send({ type: 'members', room: roomId });
    const page = await atA.next<MemberListFrame>((f) => f.type === 'memberList');
    const listed = page.usernames.map((username, at) => [username, page.displayUsernames[at]]);
    expect(listed.sort()).toEqual(
      [ann, bob, cat].map((login) => [login.user.username, login.user.displayUsername]).sort(),
    );
    expect(page.cursor).toBeUndefined();
    for (const client of [atA, bobAtB, catAtB]) client.close();
  });

  it('lists a rename at once on every node, whichever node counts the person', async () => {
    const [a, b] = services.nodes as [(typeof services.nodes)[0], (typeof services.nodes)[0]];
    const [ann, bob] = await Promise.all([guestLogin(a.app), guestLogin(b.app)]);
    const { roomId } = await joinRoom(a.app, ann.token, null);
    const atA = await TestClient.join(a, ann, roomId, 'en', current);
    const bobAtA = await TestClient.join(a, bob, roomId, 'en', current);
    await atA.next(presenceOf('JOIN', bob.user.username));
    const bobAtB = await TestClient.join(b, bob, roomId, 'en', current);
    // a rename happens through the profile API; the frame on node B asks the server to tell the room
    await setDisplayName(b, bob.user.userId, 'Bobby');
    bobAtB.send({ type: 'updateUsername', username: bob.user.username, displayUsername: 'Bobby' });
    await atA.next((f) => f.type === 'usernameUpdate');
    for (const asker of [atA, bobAtB]) {
      asker.send({ type: 'members', room: roomId });
      const page = await asker.nextNew<MemberListFrame>((f) => f.type === 'memberList');
      const listed = page.usernames.map((username, at) => [username, page.displayUsernames[at]]);
      expect(listed.sort()).toEqual(
        [
          [ann.user.username, ann.user.displayUsername],
          [bob.user.username, 'Bobby'],
        ].sort(),
      );
    }
    for (const client of [atA, bobAtA, bobAtB]) client.close();
  });

  it.each([
    ['a small room, read whole and paged by username', 300, 'u'],
    ['a room past what Redis keeps compact, paged by its scan', 700, 's'],
  ])('walks %s, everyone once', async (_, size, kind) => {
    const redis = new Redis(services.env.REDIS_URL!);
    const room = `members-test-${randomUUID()}`;
    // two nodes' shares, each holding the names of its own members
    const ids = [randomUUID(), randomUUID()] as const;
    const [atOne, atTwo] = ids.map((id) => createRedisPresence(redis, nodeShares(id))) as [
      ReturnType<typeof createRedisPresence>,
      ReturnType<typeof createRedisPresence>,
    ];
    await redis.sadd('xtalk:nodes', ...ids);
    // alive, so the heartbeat of a node that another test file starts on this Redis does not sweep them
    for (const id of ids) await redis.set(`xtalk:node:${id}:alive`, '1', 'PX', 120_000);
    try {
      const people = Array.from({ length: size }, (_, i) => [`user${i}`, `Name ${i}`] as const);
      for (const [i, [username, name]] of people.entries())
        await (i % 2 ? atOne : atTwo).join(room, username, name);
      const seen = new Map<string, string>();
      let cursor: string | undefined;
      let pages = 0;
      const kinds = new Set<string>();
      do {
        const page = await atOne.page!(room, cursor, 50);
        for (const person of page!.people) {
          expect(seen.has(person.username)).toBe(false);
          seen.set(person.username, person.displayUsername);
        }
        cursor = page!.cursor;
        if (cursor) kinds.add(cursor[0]!);
        pages++;
      } while (cursor);
      expect(pages).toBeGreaterThan(1);
      expect([...kinds]).toEqual([kind]);
      expect([...seen].sort()).toEqual(people.map(([u, n]) => [u, n]).sort());
      expect(await atOne.page!(room, 'not-a-cursor', 50)).toBeUndefined();
    } finally {
      await redis.srem('xtalk:nodes', ...ids);
      await redis.del(...ids.map((id) => `xtalk:node:${id}:alive`));
      await redis.del(`xtalk:presence:${room}`, ...ids.map((id) => `xtalk:node:${id}:presence`));
      await redis.quit();
    }
  });
});

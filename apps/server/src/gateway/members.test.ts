import { describe, expect, it } from 'vitest';
import { MEMBER_LIST_PROTOCOL_VERSION, PROTOCOL_VERSION, type ServerFrame } from '@xtalk/protocol';
import { displayNameOf } from '../accounts/index.js';
import { ROOM, room } from './testing/fake-room.js';

/*
 * members (protocol 9) against fake sockets: a member walks the room's list page by page, and whoever is
 * not a member of that room, or asks out of bounds, gets an error frame and changes nothing.
 */

type Peer = ReturnType<ReturnType<typeof room>['peer']>;

async function joinAs(peer: Peer, protocolVersion: number) {
  peer.send({
    type: 'setUsername',
    username: peer.user.username,
    language: 'en',
    room: ROOM,
    protocolVersion,
  });
  await peer.connection.settled();
}

async function ask(peer: Peer, frame: object): Promise<ServerFrame> {
  const before = peer.socket.frames.length;
  peer.send({ type: 'members', room: ROOM, ...frame });
  await peer.connection.settled();
  const answers = peer.socket.frames
    .slice(before)
    .filter((f) => f.type === 'memberList' || f.type === 'error');
  expect(answers).toHaveLength(1);
  return answers[0]!;
}

describe('members: a page of who is in the room', () => {
  it('gives a member every person in the room, a page at a time', async () => {
    const fake = room();
    const people = [1, 2, 3, 4, 5].map((n) => fake.peer(n));
    for (const peer of people) await joinAs(peer, PROTOCOL_VERSION);
    const [ann] = people as [Peer];
    const seen: Array<[string, string]> = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await ask(ann, { limit: 2, ...(cursor ? { cursor } : {}) });
      if (page.type !== 'memberList') throw new Error(`not a page: ${JSON.stringify(page)}`);
      expect(page.usernames.length).toBeLessThanOrEqual(2);
      page.usernames.forEach((username, at) => seen.push([username, page.displayUsernames[at]!]));
      cursor = page.cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual(people.map((p) => [p.user.username, displayNameOf(p.user)]).sort());
  });

  it('refuses a client before protocol 9, one not joined, another room, a bad cursor and a huge limit', async () => {
    const fake = room();
    const [ann, old, early] = [fake.peer(1), fake.peer(2), fake.peer(3)];
    await joinAs(ann, PROTOCOL_VERSION);
    await joinAs(old, MEMBER_LIST_PROTOCOL_VERSION - 1);
    const before = await ask(ann, {});

    expect(await ask(old, {})).toMatchObject({ type: 'error', code: 'bad_frame' });
    expect(await ask(early, {})).toMatchObject({ type: 'error', code: 'not_joined' });
    expect(await ask(ann, { room: 'OTHERRM' })).toMatchObject({ type: 'error', code: 'wrong_room' });
    expect(await ask(ann, { cursor: 'not-a-cursor-given' })).toMatchObject({
      type: 'error',
      code: 'bad_frame',
    });
    expect(await ask(ann, { limit: 100_000 })).toMatchObject({ type: 'error', code: 'bad_frame' });
    expect(await ask(ann, { limit: 0 })).toMatchObject({ type: 'error', code: 'bad_frame' });

    // nothing changed: the same list, and the older client still chats as before
    expect(await ask(ann, {})).toEqual(before);
    old.send({ type: 'chat', language: 'en', message: 'still here', room: ROOM, clientId: 'c-1' });
    await old.connection.settled();
    expect(old.socket.frames.at(-1)).toMatchObject({ type: 'message', message: 'still here' });
  });

  it('lists a renamed member under the new name at once, and a new username in place of the old', async () => {
    const fake = room();
    const [ann, bob] = [fake.peer(1), fake.peer(2)];
    for (const peer of [ann, bob]) await joinAs(peer, PROTOCOL_VERSION);
    const listed = async () => {
      const page = await ask(ann, {});
      if (page.type !== 'memberList') throw new Error(`not a page: ${JSON.stringify(page)}`);
      return page.usernames.map((username, at) => [username, page.displayUsernames[at]]).sort();
    };
    fake.users.set(bob.user.id, { ...bob.user, display_name: 'Bobby' });
    bob.send({ type: 'updateUsername', username: bob.user.username, displayUsername: 'Bobby' });
    await bob.connection.settled();
    expect(await listed()).toEqual(
      [
        [ann.user.username, displayNameOf(ann.user)],
        [bob.user.username, 'Bobby'],
      ].sort(),
    );
    fake.users.set(bob.user.id, { ...bob.user, username: 'bobby-b', display_name: 'Bobby' });
    bob.send({ type: 'updateUsername', username: 'bobby-b', displayUsername: 'Bobby' });
    await bob.connection.settled();
    expect(await listed()).toEqual(
      [
        [ann.user.username, displayNameOf(ann.user)],
        ['bobby-b', 'Bobby'],
      ].sort(),
    );
  });

  it("moves each of a renamed user's tabs to the new username, the ones that sent nothing too", async () => {
    const fake = room();
    const [ann, bob, bobsOtherTab] = [fake.peer(1), fake.peer(2), fake.peer(2)];
    for (const peer of [ann, bob, bobsOtherTab]) await joinAs(peer, PROTOCOL_VERSION);
    fake.users.set(bob.user.id, { ...bob.user, username: 'bobby-b', display_name: 'Bobby' });
    bob.send({ type: 'updateUsername', username: 'bobby-b', displayUsername: 'Bobby' });
    await bob.connection.settled();
    await bobsOtherTab.connection.settled();
    const page = await ask(ann, {});
    if (page.type !== 'memberList') throw new Error(`not a page: ${JSON.stringify(page)}`);
    expect(page.usernames.map((username, at) => [username, page.displayUsernames[at]]).sort()).toEqual(
      [
        [ann.user.username, displayNameOf(ann.user)],
        ['bobby-b', 'Bobby'],
      ].sort(),
    );
  });
});

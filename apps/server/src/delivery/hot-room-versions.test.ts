import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_COUNT_PROTOCOL_VERSION, type ServerFrame, type SystemFrame } from '@xtalk/protocol';
import {
  guestLogin,
  joinRoom,
  presenceOf,
  startServer,
  TestClient,
  type TestServer,
} from '../testing/harness.js';

/*
 * A hot room over real sockets, one client of each kind: protocol 6 is still named everyone who comes, as
 * before; protocol 7 gets counts and no names once the room is hot.
 */

const isCount = (frame: ServerFrame): frame is SystemFrame =>
  frame.type === 'system' && frame.message === 'MEMBERS';

describe('a hot room and its older clients', () => {
  let server: TestServer;
  const clients: TestClient[] = [];
  beforeAll(async () => {
    server = await startServer({ HOT_ROOM_ABOVE: '2' });
  });
  afterAll(async () => {
    for (const client of clients) client.ws.close();
    await server.close();
  });

  async function join(roomId: string, protocolVersion: number) {
    const login = await guestLogin(server.app);
    const client = await TestClient.join(server, login, roomId, 'en', { protocolVersion });
    clients.push(client);
    return { client, username: login.user.username };
  }

  it('names each arrival to protocol 6 and counts them for protocol 7', async () => {
    const owner = await guestLogin(server.app);
    const { roomId } = await joinRoom(server.app, owner.token, null);
    const older = await join(roomId, MEMBER_COUNT_PROTOCOL_VERSION - 1);
    const current = await join(roomId, MEMBER_COUNT_PROTOCOL_VERSION);
    // two people: a small room, names for both kinds, the count for whoever reads it
    expect(await older.client.next(presenceOf('JOIN', current.username))).toMatchObject({ members: 2 });

    const third = await join(roomId, MEMBER_COUNT_PROTOCOL_VERSION);
    // the room is hot now: the joiner is told the count, the current member counts, the older one a name
    expect(await third.client.next(isCount)).toMatchObject({ members: 3, joined: 0 });
    expect(await current.client.next(isCount)).toMatchObject({
      members: 3,
      joined: 1,
      usernames: [third.username],
    });
    await older.client.next(presenceOf('JOIN', third.username));

    const fourth = await join(roomId, MEMBER_COUNT_PROTOCOL_VERSION);
    const counted = await current.client.next((frame) => isCount(frame) && frame.members === 4);
    expect(counted).toMatchObject({ joined: 1, left: 0, usernames: [fourth.username] });
    await older.client.next(presenceOf('JOIN', fourth.username));
    // the names for older clients were published before each count: none reached the current client
    expect(current.client.frames.filter(presenceOf('JOIN', third.username))).toEqual([]);
    expect(current.client.frames.filter(presenceOf('JOIN', fourth.username))).toEqual([]);
    expect(older.client.frames.filter(isCount)).toEqual([]);

    const left = current.client.nextNew(isCount);
    fourth.client.ws.close();
    expect(await left).toMatchObject({ members: 3, joined: 0, left: 1 });
    await older.client.next(presenceOf('LEAVE', fourth.username));
  });
});

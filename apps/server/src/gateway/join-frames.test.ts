import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '@xtalk/protocol';
import { ROOM, room, type FakeSocket } from './testing/fake-room.js';

/*
 * Joining a room (setUsername) against fake sockets: who may join where, the replay then READY then what
 * was said meanwhile, JOIN and LEAVE for the others, and a repeated setUsername.
 */

describe('connection: setUsername and the frames of joining', () => {
  it('joins only as the logged-in user, in this room, in a supported language', async () => {
    const alice = room().peer(1);
    const attempt = async (frame: object) => {
      alice.send({
        type: 'setUsername',
        username: alice.user.username,
        language: 'en',
        room: ROOM,
        ...frame,
      });
      await alice.connection.settled();
      const last = alice.socket.frames.at(-1);
      return last?.type === 'error' ? last.code : last?.type;
    };
    expect(await attempt({ username: 'g-2' })).toBe('forbidden');
    expect(await attempt({ room: 'OTHERRM' })).toBe('wrong_room');
    expect(await attempt({ language: 'fr' })).toBe('unsupported_language');
    expect(alice.socket.frames.some((frame) => frame.type === 'system')).toBe(false);
    // the room code is matched the way people type it
    expect(await attempt({ room: ' abcdefg ' })).toBe('system');
  });

  it('replays the history, then READY, then what was said meanwhile, each message once', async () => {
    const history = room();
    const bob = history.peer(2);
    await bob.join();
    await bob.chat('before');
    const alice = history.peer(1);
    // bob speaks while alice's replay query runs: it is in the replay query's result and arrives live
    // too. The room position (offset 1) was read first, so it comes once, live, after READY.
    history.duringReplay(() => bob.chat('during'));
    await alice.join();
    await bob.chat('after');
    expect(
      alice.socket.frames.map((frame) => (frame.type === 'message' ? frame.message : frame.type)),
    ).toEqual(['before', 'system', 'during', 'after']);
    expect(alice.socket.frames[1]).toEqual({
      type: 'system',
      message: 'READY',
      timestamp: 1_000,
      roomId: ROOM,
      protocolVersion: PROTOCOL_VERSION,
      epoch: 'e1',
      offset: 1,
      // protocol 3: the languages a listener may pick, and the edit window (none configured here)
      languages: ['en', 'ja'],
      editWindowSeconds: 0,
    });
  });

  it('announces a join and a leave to the others, and no leave when the server shuts down', async () => {
    const { peer } = room();
    const alice = peer(1);
    const bob = peer(2);
    const carol = peer(3);
    await alice.join();
    await bob.join();
    await carol.join();
    const events = (socket: FakeSocket) =>
      socket.frames.flatMap((frame) =>
        frame.type === 'system' && frame.message !== 'READY' ? [`${frame.message} ${frame.username}`] : [],
      );
    expect(events(alice.socket)).toEqual(['JOIN g-2', 'JOIN g-3']);
    expect(events(bob.socket)).toEqual(['JOIN g-3']);
    await bob.connection.onClose(true);
    await carol.connection.onClose(false);
    expect(events(alice.socket)).toEqual(['JOIN g-2', 'JOIN g-3', 'LEAVE g-2']);
    // closed connections send nothing more
    await alice.chat('anyone?');
    expect(bob.socket.frames.some((frame) => frame.type === 'message')).toBe(false);
  });

  it('a repeated setUsername only changes the language', async () => {
    const alice = room().peer(1);
    await alice.join('en');
    await alice.join('ja');
    expect(alice.socket.frames.filter((frame) => frame.type === 'system')).toHaveLength(1);
    expect(alice.connection.context.language()).toBe('ja');
  });
});

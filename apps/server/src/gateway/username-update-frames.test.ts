import { describe, expect, it } from 'vitest';
import { displayNameOf } from '../accounts/index.js';
import { room } from './testing/fake-room.js';

/*
 * updateUsername against fake sockets: a rename only to the username saved in the profile, told to the
 * room as a usernameUpdate frame.
 */

describe('connection: updateUsername', () => {
  it('renames only to the username saved in the profile, and tells the room', async () => {
    const { peer, users } = room();
    const alice = peer(1);
    const bob = peer(2);
    await alice.join();
    await bob.join();
    alice.send({ type: 'updateUsername', username: 'g-9', displayUsername: 'Mallory' });
    await alice.connection.settled();
    expect(alice.socket.errors().map((frame) => frame.type === 'error' && frame.code)).toEqual(['forbidden']);
    users.set('u1', { ...alice.user, display_name: 'Alice' });
    alice.send({ type: 'updateUsername', username: 'g-1', displayUsername: 'Alice' });
    await alice.connection.settled();
    expect(bob.socket.frames.filter((frame) => frame.type === 'usernameUpdate')).toEqual([
      {
        type: 'usernameUpdate',
        username: 'g-1',
        displayUsername: 'Alice',
        oldDisplayUsername: displayNameOf(alice.user),
      },
    ]);
    expect(alice.connection.context.displayUsername()).toBe('Alice');
  });
});

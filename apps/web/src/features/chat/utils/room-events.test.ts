import type { ServerFrame } from '@xtalk/protocol';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from './chat-items';
import { chatReducer } from './messages-reducer';
import { message, named, run } from './testing';

/* The room's own frames in the chat state: a resync starts the list over, a rename reaches every item. */

describe('room events', () => {
  it('starts over on RESYNC: the recent window that follows replaces the list', () => {
    const held = run([message(1), message(2)]);
    const resync: ServerFrame = { type: 'system', message: 'RESYNC', timestamp: 3, epoch: 'e', offset: 9 };
    const state = chatReducer(held, { type: 'frame', frame: resync });
    expect(state.items).toEqual([]);
  });

  it('renames every message and pill of a user on usernameUpdate', () => {
    const state = run([
      { type: 'system', message: 'JOIN', timestamp: 500, username: 'alice', displayUsername: 'BraveOtter' },
      message(1000),
      message(2000, { username: 'bob', displayUsername: 'CalmPanda' }),
      {
        type: 'usernameUpdate',
        username: 'alice',
        displayUsername: 'Alice',
        oldDisplayUsername: 'BraveOtter',
      },
    ]);
    expect(named(state).map((item) => item.displayUsername)).toEqual(['Alice', 'Alice', 'CalmPanda']);
  });

  it('renames items stored under the old username (a new username, found by the old display name)', () => {
    const state = run([
      message(1000, { username: 'u-0123456789ab', displayUsername: 'BraveOtter' }),
      message(2000, { username: 'bob', displayUsername: 'CalmPanda' }),
      {
        type: 'usernameUpdate',
        username: 'alice_new',
        displayUsername: 'alice_new',
        oldDisplayUsername: 'BraveOtter',
      },
    ]);
    expect(named(state).map((item) => [item.username, item.displayUsername])).toEqual([
      ['alice_new', 'alice_new'],
      ['bob', 'CalmPanda'],
    ]);
  });

  it("marks the listed messages as a deleted user's, live, and leaves the rest", () => {
    const state = run([
      message(1000),
      message(2000, { username: 'bob', displayUsername: 'CalmPanda' }),
      message(3000),
      {
        type: 'usernameUpdate',
        username: '',
        displayUsername: '',
        oldDisplayUsername: '',
        authorDeleted: true,
        messageIds: [1000, 3000],
      },
    ]);
    const messages = state.items as ChatMessage[];
    expect(messages.map((item) => [item.username, item.displayUsername, item.authorDeleted])).toEqual([
      ['', 'deleted user', true],
      ['bob', 'CalmPanda', undefined],
      ['', 'deleted user', true],
    ]);
  });

  it('leaves every item alone on a logged rename whose author was deleted since', () => {
    const held = run([message(1000)]);
    const erased: ServerFrame = {
      type: 'usernameUpdate',
      username: '',
      displayUsername: '',
      oldDisplayUsername: '',
    };
    expect(chatReducer(held, { type: 'frame', frame: erased })).toBe(held);
  });
});

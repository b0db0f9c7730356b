import { describe, expect, it } from 'vitest';
import { joinNames, toDisplayItems } from './display-items';
import { message, run } from './testing';

/* The chat log as it is shown: JOINs and LEAVEs folded into pills, and the names a pill reads. */

describe('toDisplayItems', () => {
  it('groups consecutive JOINs (and LEAVEs) and lists newest first', () => {
    const state = run([
      { type: 'system', message: 'JOIN', timestamp: 1, username: 'a', displayUsername: 'A' },
      { type: 'system', message: 'JOIN', timestamp: 2, username: 'b', displayUsername: 'B' },
      message(3),
      { type: 'system', message: 'LEAVE', timestamp: 4, username: 'a', displayUsername: 'A' },
      { type: 'system', message: 'JOIN', timestamp: 5, username: 'c', displayUsername: 'C' },
    ]);
    const items = toDisplayItems(state.items);
    expect(
      items.map((item) => (item.kind === 'system' ? `${item.event}:${item.names.join('+')}` : 'msg')),
    ).toEqual(['JOIN:C', 'LEAVE:A', 'msg', 'JOIN:A+B']);
  });

  it('reads a coalesced JOIN listing several people, and leaves the reader out', () => {
    const state = run([
      { type: 'system', message: 'JOIN', timestamp: 1, username: 'a', displayUsername: 'A' },
      {
        type: 'system',
        message: 'JOIN',
        timestamp: 2,
        username: 'b',
        displayUsername: 'B',
        usernames: ['b', 'me', 'c'],
        displayUsernames: ['B', 'Me', 'C'],
      },
    ]);
    expect(state.items.map((item) => (item.kind === 'system' ? item.displayUsername : 'msg'))).toEqual([
      'A',
      'B',
      'Me',
      'C',
    ]);
    const items = toDisplayItems(state.items, 'me');
    expect(items.map((item) => (item.kind === 'system' ? item.names.join('+') : 'msg'))).toEqual(['A+B+C']);
  });
});

describe('joinNames', () => {
  it('joins names the way the pill reads', () => {
    expect(joinNames(['A'], ' and ')).toBe('A');
    expect(joinNames(['A', 'B'], ' and ')).toBe('A and B');
    expect(joinNames(['A', 'B', 'C'], ' and ')).toBe('A, B and C');
  });
});

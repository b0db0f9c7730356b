import { describe, expect, it } from 'vitest';
import { chatReducer } from './messages-reducer';
import { message, run } from './testing';

/* The reducer itself: a new session empties the log, and frames no step knows leave the state as it is. */

describe('chatReducer', () => {
  it('resets to an empty list for a new session', () => {
    expect(chatReducer(run([message(1)]), { type: 'reset' }).items).toEqual([]);
  });

  it('ignores READY, BALANCE and error frames', () => {
    const state = run([message(1)]);
    expect(run([{ type: 'system', message: 'READY', timestamp: 2, roomId: 'ABC2345' }], state)).toBe(state);
    expect(run([{ type: 'error', code: 'notice', message: 'translation unavailable' }], state)).toBe(state);
  });
});

import { describe, expect, it } from 'vitest';
import type { UserRow } from '../accounts/index.js';
import { createSessionHandoffs } from './session-handoffs.js';

/* The hand-off from a join to its socket (decision 0138): once, to the join's own token, while all is fresh. */

const user = (id: string): UserRow => ({
  id,
  provider: 'guest',
  subject: id,
  username: `g-${id}`,
  display_name: null,
  name: '',
});

function setup(options: { ttlMs?: number; max?: number } = {}) {
  let now = 1_000_000;
  const clock = { now: () => now };
  const handoffs = createSessionHandoffs(clock, { ttlMs: 10_000, ...options });
  /** A join by `userId` with the token `token-of-{userId}`, whose session and token live as long as given. */
  const hold = (
    sessionId: string,
    userId: string,
    sessionLifetimeMs = 3_600_000,
    tokenLifetimeMs = 3_600_000,
  ) =>
    handoffs.hold({
      session: {
        id: sessionId,
        user_id: userId,
        room_id: 'ROOM001',
        expires_at: new Date(now + sessionLifetimeMs),
      },
      user: user(userId),
      claims: {
        userId,
        provider: 'guest',
        platformPlayerId: userId,
        expiresAt: Math.floor((now + tokenLifetimeMs) / 1000),
      },
      token: `token-of-${userId}`,
    });
  return { handoffs, hold, pass: (ms: number) => void (now += ms) };
}

describe('session hand-offs', () => {
  it('hands a session to the first upgrade with the join’s token, once', () => {
    const { handoffs, hold } = setup();
    hold('s1', 'alice');
    expect(handoffs.take('s1', 'token-of-alice')).toEqual({
      session: { id: 's1', user_id: 'alice', room_id: 'ROOM001', expires_at: expect.any(Date) },
      user: expect.objectContaining({ id: 'alice' }),
      claims: expect.objectContaining({ userId: 'alice' }),
    });
    expect(handoffs.take('s1', 'token-of-alice')).toBeUndefined();
    expect(handoffs.size).toBe(0);
  });

  it('gives nothing to any other token, and keeps the hand-off for the join’s own', () => {
    const { handoffs, hold } = setup();
    hold('s1', 'alice');
    expect(handoffs.take('s1', 'token-of-mallory')).toBeUndefined();
    expect(handoffs.take('s1', 'token-of-alicf')).toBeUndefined(); // same length, one character off
    expect(handoffs.take('s1', 'token-of-alice-and-more')).toBeUndefined();
    expect(handoffs.take('s1', 'token-of-alice')?.user.id).toBe('alice');
  });

  it('gives nothing once the hand-off, the session or the token has expired', () => {
    const { handoffs, hold, pass } = setup();
    hold('s1', 'alice');
    hold('s2', 'bob', 5_000);
    hold('s3', 'carol', 3_600_000, 5_000);
    pass(6_000);
    expect(handoffs.take('s2', 'token-of-bob')).toBeUndefined(); // the session itself ended
    expect(handoffs.take('s3', 'token-of-carol')).toBeUndefined(); // the token expired
    pass(4_000);
    expect(handoffs.take('s1', 'token-of-alice')).toBeUndefined(); // 10 s after the join
    expect(handoffs.size).toBe(0);
  });

  it('drops expired hand-offs as new ones come, and the oldest beyond its capacity', () => {
    const { handoffs, hold, pass } = setup({ max: 3 });
    hold('s1', 'a');
    pass(9_000);
    hold('s2', 'b');
    hold('s3', 'c');
    pass(2_000);
    hold('s4', 'd'); // s1 expired and goes
    expect(handoffs.size).toBe(3);
    hold('s5', 'e'); // over capacity: the oldest (s2) goes
    expect(handoffs.size).toBe(3);
    expect(handoffs.take('s2', 'token-of-b')).toBeUndefined();
    expect(['s3', 's4', 's5'].map((id, i) => handoffs.take(id, `token-of-${'cde'[i]}`)?.session.id)).toEqual([
      's3',
      's4',
      's5',
    ]);
  });
});

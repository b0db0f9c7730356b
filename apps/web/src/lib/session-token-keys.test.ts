import { beforeEach, describe, expect, it } from 'vitest';
import { testUser } from '#web/test/fixtures';
import { authStore } from './auth-session';

/* The token also under app id + platform player id, with its stored time; logout clears it. */

beforeEach(() => {
  localStorage.clear();
  authStore.reset();
});

describe('session token keys', () => {
  it('keeps the token under app id and platform player id with the time it was stored', () => {
    const before = Date.now();
    authStore.set({ token: 'tok-1', user: testUser({ appId: 'xtalk', platformPlayerId: 'p-9' }) });
    expect(localStorage.getItem('token:xtalk:p-9')).toBe('tok-1');
    const time = Number(localStorage.getItem('token:xtalk:p-9:time'));
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
    expect(localStorage.getItem('token')).toBe('tok-1');
  });

  it('logout removes every stored token', () => {
    authStore.set({ token: 'tok-1', user: testUser({ platformPlayerId: 'p-1' }) });
    authStore.set({ token: 'tok-2', user: testUser({ platformPlayerId: 'p-2' }) });
    localStorage.setItem('lang', 'ja');
    authStore.clear();
    expect(Object.keys(localStorage).filter((key) => key.startsWith('token'))).toEqual([]);
    expect(localStorage.getItem('lang')).toBe('ja');
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { testUser } from '#web/test/fixtures';
import { authStore, readValidSession } from './auth-session';
import { StorageKey, consumeRedirectAfterLogin, saveRedirectAfterLogin } from './storage';

const NOW = 1_750_000_000_000;
const user = (expiresAt: number) => testUser({ expiresAt });

function store(token: string, expiresAtSeconds: number) {
  localStorage.setItem(StorageKey.token, token);
  localStorage.setItem(StorageKey.user, JSON.stringify(user(expiresAtSeconds)));
}

beforeEach(() => {
  localStorage.clear();
  authStore.reset();
});

describe('token validity', () => {
  it('is valid while present, non-empty and not expired', () => {
    store('tok', NOW / 1000 + 60);
    expect(readValidSession(NOW)?.token).toBe('tok');
  });

  it('is invalid once the session duration has passed', () => {
    store('tok', NOW / 1000);
    expect(readValidSession(NOW)).toBeUndefined();
  });

  it('is invalid when empty, missing, or without a readable user', () => {
    store('', NOW / 1000 + 60);
    expect(readValidSession(NOW)).toBeUndefined();
    localStorage.clear();
    expect(readValidSession(NOW)).toBeUndefined();
    localStorage.setItem(StorageKey.token, 'tok');
    localStorage.setItem(StorageKey.user, '{not json');
    expect(readValidSession(NOW)).toBeUndefined();
  });

  it('honours the force-new-authentication flag exactly once', () => {
    store('tok', NOW / 1000 + 60);
    localStorage.setItem(StorageKey.forceAuth, '1');
    expect(readValidSession(NOW)).toBeUndefined();
    expect(localStorage.getItem(StorageKey.forceAuth)).toBe('0');
    // The stale token went with it: the next read needs a fresh login, which stores a new one.
    expect(localStorage.getItem(StorageKey.token)).toBeNull();
    store('fresh', NOW / 1000 + 60);
    expect(readValidSession(NOW)?.token).toBe('fresh');
  });
});

describe('authStore', () => {
  it('persists on set and forgets every token on clear', () => {
    authStore.set({ token: 'tok', user: user(Date.now() / 1000 + 3600) });
    localStorage.setItem(StorageKey.sid, 'session-1');
    expect(authStore.get()?.token).toBe('tok');
    authStore.clear();
    expect(authStore.get()).toBeUndefined();
    expect(localStorage.getItem(StorageKey.token)).toBeNull();
    expect(localStorage.getItem(StorageKey.user)).toBeNull();
    expect(localStorage.getItem(StorageKey.sid)).toBeNull();
  });
});

describe('redirectAfterLogin', () => {
  it('is consumed once', () => {
    saveRedirectAfterLogin('/translate?r=ABC2345');
    expect(consumeRedirectAfterLogin()).toBe('/translate?r=ABC2345');
    expect(consumeRedirectAfterLogin()).toBeUndefined();
  });

  it('refuses targets that would leave the site', () => {
    saveRedirectAfterLogin('https://evil.example/');
    expect(consumeRedirectAfterLogin()).toBeUndefined();
    saveRedirectAfterLogin('//evil.example/');
    expect(consumeRedirectAfterLogin()).toBeUndefined();
  });
});

import { useSyncExternalStore } from 'react';
import { PROVIDERS, type User } from '@xtalk/protocol';
import { forgetSessionTokens, rememberSessionToken } from './session-token-keys';
import { StorageKey, readJson, readString, remove, writeJson, writeString } from './storage';

/*
 * The signed-in session: token plus the user it belongs to, persisted under `token` and `user`.
 * A small external store so React components (useSyncExternalStore) and plain code share one truth.
 */

export interface AuthSession {
  token: string;
  user: User;
}

/**
 * Token validity: present, non-empty and younger than the session duration. The server
 * tells the expiry (user.expiresAt, seconds), so "younger than the duration" is "not yet expired".
 * The force-new-authentication flag ('1') invalidates it exactly once and is then reset to '0'.
 */
export function readValidSession(nowMs = Date.now()): AuthSession | undefined {
  if (typeof window === 'undefined') return undefined;
  if (readString(StorageKey.forceAuth) === '1') {
    writeString(StorageKey.forceAuth, '0');
    clearStoredSession();
    return undefined;
  }
  const token = readString(StorageKey.token);
  if (!token) return undefined;
  const user = readJson<unknown>(StorageKey.user);
  if (!isStoredUser(user)) return undefined;
  if (user.expiresAt * 1000 <= nowMs) return undefined;
  return { token, user };
}

/**
 * The stored user's shape (protocol's userSchema, checked by hand): this runs on every first load, and
 * zod would add much of the first-load budget to it. The server checks the token anyway; this only guards bad storage.
 */
function isStoredUser(value: unknown): value is User {
  if (!value || typeof value !== 'object') return false;
  const user = value as Record<string, unknown>;
  const strings = ['userId', 'appId', 'platform', 'platformPlayerId', 'username', 'displayUsername', 'name'];
  return (
    strings.every((key) => typeof user[key] === 'string') &&
    (PROVIDERS as readonly unknown[]).includes(user.provider) &&
    Number.isInteger(user.expiresAt)
  );
}

function clearStoredSession(): void {
  remove(StorageKey.token);
  remove(StorageKey.user);
  forgetSessionTokens();
}

type Listener = () => void;
const listeners = new Set<Listener>();
let current: AuthSession | undefined;
let loaded = false;

function emit(): void {
  for (const listener of listeners) listener();
}

export const authStore = {
  get(): AuthSession | undefined {
    if (!loaded) {
      loaded = true;
      current = readValidSession();
    }
    // An expired session is dropped the moment someone looks at it.
    if (current && current.user.expiresAt * 1000 <= Date.now()) current = undefined;
    return current;
  },
  set(session: AuthSession): void {
    writeString(StorageKey.token, session.token);
    writeJson(StorageKey.user, session.user);
    rememberSessionToken(session.token, session.user);
    current = session;
    loaded = true;
    emit();
  },
  /** Logout / rejected token: forget the user and every stored token. */
  clear(): void {
    clearStoredSession();
    remove(StorageKey.sid);
    current = undefined;
    loaded = true;
    emit();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Tests only: forget the in-memory copy so the next get() reads storage again. */
  reset(): void {
    loaded = false;
    current = undefined;
  },
};

/** The current session (or undefined), re-rendering on login/logout. */
export function useAuthSession(): AuthSession | undefined {
  return useSyncExternalStore(authStore.subscribe, authStore.get, authStore.get);
}

/*
 * Browser storage (the keys in docs/product.md#browser-storage). Every access is guarded: private mode, quota
 * errors or a missing window must never break the app, so failures are logged and read as "nothing".
 */

export const StorageKey = {
  token: 'token',
  /** The signed-in user that belongs to `token` (its expiry decides the token's validity). */
  user: 'user',
  lang: 'lang',
  rid: 'rid',
  sid: 'sid',
  tut: 'tut',
  rooms: 'rooms',
  bal: 'bal',
  mic: 'mic',
  theme: 'ui-theme',
  /** '1' forces one fresh authentication; reset to '0' once honoured. */
  forceAuth: 'forceNewAuth',
  redirectAfterLogin: 'redirectAfterLogin',
  /** Messages typed but not yet acknowledged by the server (features/room/utils/outbox.ts). */
  outbox: 'outbox',
  /** The language picked to listen in, when the server offers more than EN/JA (features/room/utils/listening.ts). */
  listen: 'listen',
  /** The last message id seen per room, for "Catch me up" (features/catch-up/utils/last-seen.ts). */
  seen: 'seen',
  /** 'off' while spoken translations are muted (features/voice/hooks/use-audio-playback.ts). */
  speech: 'speech',
  /** 'on' once system notifications were turned on in the settings menu (features/notifications). */
  notify: 'notify',
  /** 'off' while the chime for others' messages is turned off (features/notifications). */
  chime: 'chime',
} as const;
export type StorageKeyName = (typeof StorageKey)[keyof typeof StorageKey];

function backend(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch (error) {
    console.warn('[storage] unavailable', error);
    return undefined;
  }
}

export function readString(key: StorageKeyName): string | undefined {
  try {
    return backend()?.getItem(key) ?? undefined;
  } catch (error) {
    console.warn(`[storage] read ${key} failed`, error);
    return undefined;
  }
}

export function writeString(key: StorageKeyName, value: string): void {
  try {
    backend()?.setItem(key, value);
  } catch (error) {
    console.warn(`[storage] write ${key} failed`, error);
  }
}

export function remove(key: StorageKeyName): void {
  try {
    backend()?.removeItem(key);
  } catch (error) {
    console.warn(`[storage] remove ${key} failed`, error);
  }
}

export function readJson<T>(key: StorageKeyName): T | undefined {
  const raw = readString(key);
  if (raw === undefined || raw === '') return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch (error) {
    console.warn(`[storage] ${key} is not JSON`, error);
    return undefined;
  }
}

export function writeJson(key: StorageKeyName, value: unknown): void {
  writeString(key, JSON.stringify(value));
}

/** Save where to go after logging in (path plus query). */
export function saveRedirectAfterLogin(target: string): void {
  writeString(StorageKey.redirectAfterLogin, target);
}

/** The saved post-login target, consumed once. */
export function consumeRedirectAfterLogin(): string | undefined {
  const target = readString(StorageKey.redirectAfterLogin);
  remove(StorageKey.redirectAfterLogin);
  // Only same-origin paths: a stored absolute URL must not turn the login into an open redirect.
  if (!target || !target.startsWith('/') || target.startsWith('//')) return undefined;
  return target;
}

export interface RoomHistoryEntry {
  added: number;
  updated: number;
}

export type RoomHistoryMap = Record<string, RoomHistoryEntry>;

/** The `rooms` key: for signed-in users a mirror of the server's history, refreshed when Past Rooms opens. */
export function readRoomHistory(): RoomHistoryMap {
  const rooms = readJson<RoomHistoryMap>(StorageKey.rooms);
  return rooms && typeof rooms === 'object' && !Array.isArray(rooms) ? rooms : {};
}

export function writeRoomHistory(rooms: RoomHistoryMap): void {
  writeJson(StorageKey.rooms, rooms);
}

/** Remember a joined room for Past Rooms (map code -> added/updated timestamps). */
export function touchRoomHistory(roomId: string, now = Date.now()): void {
  const rooms = readJson<Record<string, RoomHistoryEntry>>(StorageKey.rooms) ?? {};
  const previous = rooms[roomId];
  rooms[roomId] = { added: previous?.added ?? now, updated: now };
  writeJson(StorageKey.rooms, rooms);
}

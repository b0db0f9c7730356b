import { sessionTokenKeys, type User } from '@xtalk/protocol';

/*
 * The session token is also kept under a key built from the app id and the platform
 * player id (or the identity provider), with the time it was stored under a separate key, as native
 * clients of the player service keep it. `token`/`user` stay the keys the web app reads; these are
 * written beside them and removed with them (logout clears every stored token).
 */

const PREFIX = 'token:';

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

export function rememberSessionToken(token: string, user: User, nowMs = Date.now()): void {
  const keys = sessionTokenKeys(user.appId, user.platformPlayerId, user.provider);
  try {
    storage()?.setItem(keys.token, token);
    storage()?.setItem(keys.time, String(nowMs));
  } catch (error) {
    console.warn('[storage] keeping the session token failed', error);
  }
}

export function forgetSessionTokens(): void {
  const store = storage();
  if (!store) return;
  try {
    const keys = Array.from({ length: store.length }, (_, index) => store.key(index)).filter(
      (key): key is string => key?.startsWith(PREFIX) ?? false,
    );
    for (const key of keys) store.removeItem(key);
  } catch (error) {
    console.warn('[storage] removing session tokens failed', error);
  }
}

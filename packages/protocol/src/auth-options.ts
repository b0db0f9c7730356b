/*
 * The authentication options a client signs in with, when they are valid, and
 * where the session token they lead to is stored. Pure functions, shared by the web client and native
 * clients' reference code.
 */

/** The authentication options. `data` carries `bot` for Telegram Mini Apps. */
export interface AuthOptions {
  platformID?: unknown;
  appID?: unknown;
  identityProvider?: unknown;
  platformPlayerID?: unknown;
  signedPayload?: unknown;
  data?: unknown;
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value !== '';

/**
 * Valid only if platformID, appID and identityProvider are non-empty strings. On
 * platform tg, provider tgw is valid only with a non-empty stored valid token (the widget signs in once,
 * then the token stands for it); provider tga is invalid when signedPayload or data.bot is missing or
 * empty. Any exception (a throwing getter, a hostile object) makes them invalid.
 */
export function areAuthOptionsValid(options: AuthOptions, storedValidToken?: string | null): boolean {
  try {
    if (!nonEmpty(options.platformID) || !nonEmpty(options.appID) || !nonEmpty(options.identityProvider)) {
      return false;
    }
    if (options.platformID === 'tg' && options.identityProvider === 'tgw') return nonEmpty(storedValidToken);
    if (options.platformID === 'tg' && options.identityProvider === 'tga') {
      const bot = (options.data as { bot?: unknown } | null | undefined)?.bot;
      return nonEmpty(options.signedPayload) && nonEmpty(bot);
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * The session token is stored under a key built from the app id and the platform player
 * id (or the identity provider when the player id is empty), with its stored time under a separate key.
 */
export function sessionTokenKeys(
  appId: string,
  platformPlayerId: string | undefined,
  identityProvider: string,
): { token: string; time: string } {
  const token = `token:${appId}:${platformPlayerId ? platformPlayerId : identityProvider}`;
  return { token, time: `${token}:time` };
}

/** A stored token is valid only if non-empty and younger than the session (docs/product.md#rules). */
export function isStoredTokenValid(
  token: string | null | undefined,
  storedAtMs: number | null | undefined,
  sessionSeconds: number,
  nowMs: number,
): boolean {
  if (!token || typeof storedAtMs !== 'number' || !Number.isFinite(storedAtMs)) return false;
  const age = nowMs - storedAtMs;
  return age >= 0 && age < sessionSeconds * 1000;
}

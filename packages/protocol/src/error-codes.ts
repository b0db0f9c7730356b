/*
 * Codes of HTTP error bodies (`{ statusCode, error, message, code }`). The server keeps its English
 * `message` for logs and old clients; the web words each code in the interface language. Kept free of zod
 * so the web's first load can import it.
 */
export const HTTP_ERROR_CODES = [
  /** A body or query that fails its schema. */
  'bad_request',
  /** No token, or one that is invalid or expired. */
  'unauthorized',
  /** Signed in, but not allowed (someone else's data, a foreign origin). */
  'forbidden',
  /** Guests cannot do this (profile, room history): log in first. */
  'login_required',
  /** No such thing (route, player). */
  'not_found',
  /** A room code that names no room. */
  'room_not_found',
  /** A socket session that is unknown or expired: join the room again. */
  'session_expired',
  /** A body over its size limit. */
  'payload_too_large',
  /** Too many requests. */
  'rate_limited',
  /** The bot check was not passed. */
  'bot_check_failed',
  /** Something failed on the server. */
  'internal',
  /** A service the server needs is unreachable; try again later. */
  'unavailable',
  // email accounts (the email pages word these too)
  /** An email address the server cannot take. */
  'invalid_email',
  /** A new password shorter than PASSWORD_MIN_LENGTH. */
  'password_too_short',
  /** A password longer than PASSWORD_MAX_LENGTH. */
  'password_too_long',
  /** A mailed link (verify, reset) that is invalid, expired or already used. */
  'invalid_link',
  /** Email sign-in: the address or the password is wrong (never which). */
  'wrong_credentials',
  /** Email sign-in before the address was confirmed. */
  'email_not_verified',
  /** Password change for a player without an email sign-in. */
  'no_password',
  /** Password change: the current password is wrong. */
  'wrong_password',
  /** Deleting an account needs a sign-in of the last few minutes, or the password: sign in again. */
  'fresh_sign_in_required',
  // Google/OIDC sign-in, on the /error page it redirects to (`?code=`)
  /** Sign-in with Google is not configured, or its provider cannot be reached. */
  'sign_in_unavailable',
  /** The sign-in came back refused, expired or from another browser: start it again. */
  'sign_in_failed',
  // buying credits
  /** This server sells no credits: no payment provider, and no TEST MODE checkout. */
  'purchases_unavailable',
] as const;
export type HttpErrorCode = (typeof HTTP_ERROR_CODES)[number];

/** The code of a status when the thrower named none. */
export function httpErrorCodeOf(status: number): HttpErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 413) return 'payload_too_large';
  if (status === 429) return 'rate_limited';
  if (status === 503) return 'unavailable';
  if (status >= 500) return 'internal';
  return 'bad_request';
}

export function isHttpErrorCode(value: unknown): value is HttpErrorCode {
  return typeof value === 'string' && (HTTP_ERROR_CODES as readonly string[]).includes(value);
}

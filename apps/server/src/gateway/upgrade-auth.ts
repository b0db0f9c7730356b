import type { IncomingMessage } from 'node:http';
import { authenticatedAs, type Authenticator } from '../accounts/index.js';
import { HttpError } from '../http-errors.js';
import type { RoomsRepo } from '../rooms/index.js';
import type { SessionHandoffs } from '../rooms/index.js';

export interface UpgradeAuthOptions {
  authenticator: Authenticator;
  rooms: Pick<RoomsRepo, 'findSession' | 'sealedSession'>;
  /** Sessions a join on this node just made, with its checked token and user: taken instead (decision 0138). */
  handoffs?: Pick<SessionHandoffs, 'take'>;
  /** Browser origins allowed to open a socket; empty means same-origin only. */
  allowedOrigins: readonly string[];
}

const SOCKET_PATH = /^\/xtalk_ws\/([A-Za-z0-9_-]{1,64})$/;

/**
 * Who may open the socket an upgrade request asks for (/xtalk_ws/{sessionId}?t={token}): a known path, an
 * allowed origin, a valid token, and an unexpired session of that same user. Throws an HttpError otherwise,
 * which the gateway answers with a plain HTTP status.
 */
export async function authoriseUpgrade(request: IncomingMessage, options: UpgradeAuthOptions) {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const match = SOCKET_PATH.exec(url.pathname);
  if (!match) throw new HttpError(404, 'No such socket endpoint.');
  const origin = request.headers.origin;
  if (origin && !isAllowedOrigin(origin, request.headers.host, options.allowedOrigins)) {
    throw new HttpError(403, `Origin ${origin} is not allowed.`);
  }
  const sessionId = match[1]!;
  const token = url.searchParams.get('t') ?? undefined;
  // protocol 5: the client's first frame (setUsername) may come in the URL, so READY follows the 101 at
  // once; it is handled exactly as if it had come as a frame (decision 0141)
  const hello = url.searchParams.get('hello') ?? undefined;
  // The first socket after a join on this node, with the join's own token, takes what the join checked
  // and read (decision 0138): no signature to check again, no statement.
  const handed = token === undefined ? undefined : options.handoffs?.take(sessionId, token);
  if (handed) return { auth: { claims: handed.claims, user: handed.user }, session: handed.session, hello };
  // Otherwise the token is checked first, without the database; then its user (accounts) is read, and the
  // session (rooms) too unless its id carries its own seal (decision 0230), each by the module that owns
  // its table (decision 0177).
  const claims = await options.authenticator.claimsOf(token);
  const [user, session] = await Promise.all([
    options.authenticator.userOf(claims),
    options.rooms.sealedSession(sessionId, claims.userId) ?? options.rooms.findSession(sessionId),
  ]);
  const auth = authenticatedAs(claims, user);
  if (!session)
    throw new HttpError(401, 'Session is unknown or expired; join the room again.', 'session_expired');
  if (session.user_id !== auth.user.id) throw new HttpError(403, 'This session belongs to someone else.');
  return { auth, session, hello };
}
export type AuthorisedUpgrade = Awaited<ReturnType<typeof authoriseUpgrade>>;

export function isAllowedOrigin(
  origin: string,
  host: string | undefined,
  allowed: readonly string[],
): boolean {
  if (allowed.includes(origin)) return true;
  try {
    // same-origin: the page was served by this server under the Host the browser used
    return new URL(origin).host === host && allowed.length === 0;
  } catch {
    return false;
  }
}

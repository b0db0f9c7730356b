import type { FastifyServerOptions } from 'fastify';

/*
 * What the server's log (Fastify's pino, one JSON line per event) may hold. A log is read by more people
 * and kept longer than a database row, so nothing in it may sign someone in: no bearer token, session id,
 * password, mail link token or payment secret. Request lines carry the URL with its query values
 * replaced (a WebSocket URL's `t` token, a mail link's `token`, an OAuth callback's `code`), and the
 * fields below are censored wherever a call site puts them.
 */

const CENSOR = '[redacted]';

/** Query parameters whose value is harmless and helps an operator (the room code of a shared link). */
const SHOWN_QUERY = new Set(['r']);

/** Paths whose segment after the prefix is a secret (the socket path names the session). */
const SECRET_SEGMENT = /^(\/xtalk_ws\/)[^/?#]+/;

/** Fields censored by pino wherever they appear (top level or one object down), and request headers. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["set-cookie"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  ...['token', 'sessionId', 'password', 'secret', 'clientSecret', 'client_secret'].flatMap((key) => [
    key,
    `*.${key}`,
  ]),
];

/** A request URL fit for the log: the socket path's session and every query value but the shown ones. */
export function loggableUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(SECRET_SEGMENT, `$1${CENSOR}`);
  if (queryAt === -1) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const key = pair.split('=', 1)[0]!;
      return SHOWN_QUERY.has(key) || !pair.includes('=') ? pair : `${key}=${CENSOR}`;
    });
  return `${path}?${query.join('&')}`;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** The pino options of the server's logger; `extra` (a test's stream and level) goes on top. */
export function logOptions(level: string, extra: object = {}): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: CENSOR },
    serializers: {
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: loggableUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    ...extra,
  };
}

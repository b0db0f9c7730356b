import type { Duplex } from 'node:stream';
import type { LogSampler } from '../log-sampler.js';
import type { SocketCaps } from './socket-caps.js';

/** Why an upgrade is refused: answered as a plain HTTP status with a JSON body, never as a socket. */
export interface UpgradeRefusal {
  status: number;
  message: string;
  code: string;
  /** Sent as `retry-after`: when the client may try again (a draining node). */
  retryAfterSeconds?: number;
}

/** The socket caps the gateway applies, and the sampled log their refusals go to. */
export interface UpgradeCaps {
  sockets: SocketCaps;
  trustProxyHops: number;
  log: LogSampler;
}

/** Checked before the token is verified (cheap); on success a handshake slot is reserved for `ip`. */
export function ipCapRefusal(caps: UpgradeCaps, ip: string): UpgradeRefusal | undefined {
  if (caps.sockets.reserveIp(ip)) return undefined;
  caps.log.info('socket-cap-ip', { ip }, 'refused a socket: too many from this address', ip);
  return { status: 429, message: 'Too many open connections from your address.', code: 'rate_limited' };
}

/** Checked once the user is known: a flood cool-down, then the per-user cap. */
export function userCapRefusal(
  caps: UpgradeCaps,
  userId: string,
  sessionId: string,
): UpgradeRefusal | undefined {
  if (caps.sockets.cooling(userId)) {
    caps.log.info('socket-cooling', { userId }, 'refused a socket: flood cool-down', userId);
    return {
      status: 429,
      message: 'Too many frames were sent; wait a minute before connecting again.',
      code: 'rate_limited',
    };
  }
  if (!caps.sockets.userHasRoom(userId, sessionId)) {
    caps.log.info('socket-cap-user', { userId }, 'refused a socket: too many for this user', userId);
    return {
      status: 429,
      message: 'Too many open connections for this user; close another tab first.',
      code: 'rate_limited',
    };
  }
  return undefined;
}

export function refuse(socket: Duplex, { status, message, code, retryAfterSeconds }: UpgradeRefusal) {
  const body = JSON.stringify({ statusCode: status, code, error: statusText(status), message });
  const retryAfter = retryAfterSeconds === undefined ? '' : `Retry-After: ${retryAfterSeconds}\r\n`;
  socket.end(
    `HTTP/1.1 ${status} ${statusText(status)}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${retryAfter}Connection: close\r\n\r\n${body}`,
  );
}

function statusText(status: number): string {
  return (
    (
      {
        401: 'Unauthorized',
        403: 'Forbidden',
        404: 'Not Found',
        429: 'Too Many Requests',
        503: 'Service Unavailable',
      } as Record<number, string>
    )[status] ?? 'Internal Server Error'
  );
}

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { CloseCode } from '@xtalk/protocol';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Authenticator } from '../auth/authenticate.js';
import type { Clock } from '../clock.js';
import { HttpError } from '../http-errors.js';
import type { RoomsRepo } from '../rooms/rooms-repo.js';
import { createConnection, type ConnectionDeps } from './connection.js';
import type { LogSampler } from './log-sampler.js';
import { clientAddress, type SocketCaps } from './socket-caps.js';

export interface GatewayOptions {
  authenticator: Authenticator;
  rooms: RoomsRepo;
  connectionDeps: ConnectionDeps;
  /** Browser origins allowed to open a socket; empty means same-origin only. */
  allowedOrigins: readonly string[];
  heartbeatMs: number;
  maxFrameBytes: number;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Caps on open sockets (per address, per user, one per session); none without. */
  caps?: { sockets: SocketCaps; trustProxyHops: number; log: LogSampler };
}

const SOCKET_PATH = /^\/xtalk_ws\/([A-Za-z0-9_-]{1,64})$/;

/**
 * Accepts WebSocket upgrades on /xtalk_ws/{sessionId}?t={token}. Everything is checked before the
 * upgrade (path, origin, token, session), so a refused client gets a plain HTTP status, not a socket.
 */
export function createGateway(app: FastifyInstance, options: GatewayOptions) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes });
  const live = new Map<WebSocket, ReturnType<typeof createConnection>>();
  /** Close handling still running (presence, LEAVE); shutdown waits for it before the database closes. */
  const closings = new Set<Promise<void>>();
  let closing = false;

  async function authorise(request: IncomingMessage) {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const match = SOCKET_PATH.exec(url.pathname);
    if (!match) throw new HttpError(404, 'No such socket endpoint.');
    const origin = request.headers.origin;
    if (origin && !isAllowedOrigin(origin, request.headers.host, options.allowedOrigins)) {
      throw new HttpError(403, `Origin ${origin} is not allowed.`);
    }
    const auth = await options.authenticator.fromToken(url.searchParams.get('t') ?? undefined);
    const session = await options.rooms.findSession(match[1]!);
    if (!session)
      throw new HttpError(401, 'Session is unknown or expired; join the room again.', 'session_expired');
    if (session.user_id !== auth.user.id) throw new HttpError(403, 'This session belongs to someone else.');
    return { auth, session };
  }

  function onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
    if (closing) return refuse(socket, 503, 'Server is shutting down.', 'unavailable');
    const caps = options.caps;
    const ip = caps ? clientAddress(request, caps.trustProxyHops) : '';
    if (caps && !caps.sockets.reserveIp(ip)) {
      caps.log.info('socket-cap-ip', { ip }, 'refused a socket: too many from this address');
      return refuse(socket, 429, 'Too many open connections from your address.', 'rate_limited');
    }
    // whatever happens before the socket opens (refused, dropped), the reservation is given back
    let opened = false;
    if (caps) socket.once('close', () => !opened && caps.sockets.releaseIp(ip));
    authorise(request).then(
      ({ auth, session }) => {
        if (caps?.sockets.cooling(auth.user.id)) {
          caps.log.info('socket-cooling', { userId: auth.user.id }, 'refused a socket: flood cool-down');
          return refuse(
            socket,
            429,
            'Too many frames were sent; wait a minute before connecting again.',
            'rate_limited',
          );
        }
        if (caps && !caps.sockets.userHasRoom(auth.user.id, session.id)) {
          caps.log.info(
            'socket-cap-user',
            { userId: auth.user.id },
            'refused a socket: too many for this user',
          );
          return refuse(
            socket,
            429,
            'Too many open connections for this user; close another tab first.',
            'rate_limited',
          );
        }
        wss.handleUpgrade(request, socket, head, (ws) => {
          if (closing) return ws.close(CloseCode.GoingAway, 'Server is shutting down.');
          opened = true;
          const release = caps?.sockets.open(ip, auth.user.id, session.id, {
            replace: () => ws.close(CloseCode.SessionEnded, 'This session was opened again elsewhere.'),
          });
          const connection = accept(ws, auth, session.room_id);
          ws.once('close', () => {
            release?.();
            if (connection.flooded()) caps?.sockets.penalise(auth.user.id);
          });
        });
      },
      (error: unknown) => {
        const status = error instanceof HttpError ? error.statusCode : 500;
        const message = error instanceof HttpError ? error.message : 'Could not open the socket.';
        if (status === 500) options.logger.error({ err: error }, 'socket upgrade failed');
        refuse(socket, status, message, error instanceof HttpError ? error.code : 'internal');
      },
    );
  }

  function accept(ws: WebSocket, auth: Awaited<ReturnType<typeof authorise>>['auth'], roomId: string) {
    const connection = createConnection(
      {
        sendText: (data) => ws.send(data, { binary: false }),
        sendBinary: (data) => ws.send(data, { binary: true }),
        close: (code, reason) => ws.close(code, reason),
        get bufferedAmount() {
          return ws.bufferedAmount;
        },
      },
      { roomId },
      auth.user,
      options.connectionDeps,
    );
    live.set(ws, connection);
    let alive = true;
    ws.on('pong', () => (alive = true));
    const heartbeat = setInterval(() => {
      // a peer that did not answer the last ping is gone (network dropped, laptop closed)
      if (!alive) return ws.terminate();
      alive = false;
      try {
        ws.ping();
      } catch {
        ws.terminate();
      }
    }, options.heartbeatMs);
    const untilExpiry = auth.claims.expiresAt * 1000 - options.clock.now();
    const expiry = setTimeout(
      () => ws.close(CloseCode.TokenExpired, 'Your login has expired.'),
      Math.min(Math.max(untilExpiry, 0), 2 ** 31 - 1),
    );
    ws.on('message', (data, isBinary) => {
      const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      if (isBinary) connection.onBinary(buffer);
      else connection.onText(buffer.toString('utf8'));
    });
    ws.on('error', (error) => options.logger.info({ err: error }, 'socket error'));
    ws.on('close', () => {
      clearInterval(heartbeat);
      clearTimeout(expiry);
      live.delete(ws);
      const work = connection
        .onClose(!closing)
        .catch((error: unknown) => options.logger.error({ err: error }, 'close handling failed'));
      closings.add(work);
      void work.finally(() => closings.delete(work));
    });
    return connection;
  }

  app.server.on('upgrade', onUpgrade);

  return {
    /** Local connection count. */
    size: () => live.size,
    /**
     * Graceful shutdown: stop accepting, let every connection finish storing what it already received,
     * then close with 1001 so clients know to come back.
     */
    async close(): Promise<void> {
      closing = true;
      app.server.off('upgrade', onUpgrade);
      const connections = [...live.entries()];
      await Promise.allSettled(connections.map(([, connection]) => connection.settled()));
      const closed = connections.map(
        ([ws]) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === ws.CLOSED) return resolve();
            ws.once('close', () => resolve());
            ws.close(CloseCode.GoingAway, 'Server is restarting.');
            setTimeout(() => {
              ws.terminate();
              resolve();
            }, 2000).unref();
          }),
      );
      await Promise.all(closed);
      await Promise.allSettled([...closings]);
      wss.close();
    },
  };
}
export type Gateway = ReturnType<typeof createGateway>;

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

function refuse(socket: Duplex, status: number, message: string, code: string) {
  const body = JSON.stringify({ statusCode: status, code, error: statusText(status), message });
  socket.end(
    `HTTP/1.1 ${status} ${statusText(status)}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
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

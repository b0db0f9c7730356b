import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { CloseCode } from '@xtalk/protocol';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Authenticator } from '../auth/authenticate.js';
import type { Clock } from '../clock.js';
import { HttpError } from '../http-errors.js';
import type { RoomsRepo } from '../rooms/rooms-repo.js';
import { createConnection, type Connection, type ConnectionDeps } from './connection.js';
import { createHeartbeat } from './heartbeat.js';
import { clientAddress } from './socket-caps.js';
import { authoriseUpgrade, type AuthorisedUpgrade } from './upgrade-auth.js';
import { ipCapRefusal, refuse, userCapRefusal, type UpgradeCaps } from './upgrade-refusal.js';
import { createWriteBatcher, textFrame } from './write-batcher.js';

export { isAllowedOrigin } from './upgrade-auth.js';

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
  caps?: UpgradeCaps;
}

/** Counts the socket against its caps until it closes (a flooder's user waits before the next one). */
function capSocket(
  caps: UpgradeCaps,
  ws: WebSocket,
  connection: Connection,
  ip: string,
  userId: string,
  sessionId: string,
) {
  const release = caps.sockets.open(ip, userId, sessionId, {
    replace: () => ws.close(CloseCode.SessionEnded, 'This session was opened again elsewhere.'),
  });
  ws.once('close', () => {
    release();
    if (connection.flooded()) caps.sockets.penalise(userId);
  });
}

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
  /** Text frames leave framed once and corked per turn (write-batcher.ts, docs/decisions/0110). */
  const batcher = createWriteBatcher();
  const heartbeat = createHeartbeat(options.heartbeatMs);

  function onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
    if (closing) {
      return refuse(socket, { status: 503, message: 'Server is shutting down.', code: 'unavailable' });
    }
    const caps = options.caps;
    const ip = caps ? clientAddress(request, caps.trustProxyHops) : '';
    const ipRefusal = caps && ipCapRefusal(caps, ip);
    if (ipRefusal) return refuse(socket, ipRefusal);
    // whatever happens before the socket opens (refused, dropped), the reservation is given back; once
    // open, the socket's caps take over (capSocket) and this listener, which holds the request, goes
    const releaseIp = caps ? () => caps.sockets.releaseIp(ip) : undefined;
    if (releaseIp) socket.once('close', releaseIp);
    authoriseUpgrade(request, options).then(
      (authorised) => open(request, socket, head, ip, authorised, releaseIp),
      (error: unknown) => {
        const status = error instanceof HttpError ? error.statusCode : 500;
        const message = error instanceof HttpError ? error.message : 'Could not open the socket.';
        if (status === 500) options.logger.error({ err: error }, 'socket upgrade failed');
        refuse(socket, { status, message, code: error instanceof HttpError ? error.code : 'internal' });
      },
    );
  }

  /**
   * The upgrade of an authorised request. Its own scope, so what lives as long as the socket (the close
   * listener) does not keep the HTTP request alive (a closure holds its whole scope).
   */
  function open(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    ip: string,
    { auth, session }: AuthorisedUpgrade,
    releaseIp: (() => void) | undefined,
  ) {
    const caps = options.caps;
    const userRefusal = caps && userCapRefusal(caps, auth.user.id, session.id);
    if (userRefusal) return refuse(socket, userRefusal);
    wss.handleUpgrade(request, socket, head, (ws) => {
      if (closing) return ws.close(CloseCode.GoingAway, 'Server is shutting down.');
      if (releaseIp) socket.off('close', releaseIp);
      const connection = accept(ws, socket, auth, session.room_id);
      if (caps) capSocket(caps, ws, connection, ip, auth.user.id, session.id);
    });
  }

  function accept(ws: WebSocket, stream: Duplex, auth: AuthorisedUpgrade['auth'], roomId: string) {
    const connection = createConnection(
      {
        // the upgraded stream is the one `ws` writes to: a frame written here keeps its place among
        // ws's own (ping, close); once ws is closing nothing more is sent, as ws.send would refuse
        sendText: (data) => {
          if (ws.readyState !== ws.OPEN) return;
          batcher.write(stream, textFrame(typeof data === 'string' ? Buffer.from(data) : data));
        },
        sendBinary: (data) => ws.send(data, { binary: true }),
        close: (code, reason) => ws.close(code, reason),
        // what ws.bufferedAmount adds to this (its sender's queue) is only ever used while compressing
        // or reading a Blob, neither of which this server does; read per delivery, the stream is cheaper
        get bufferedAmount() {
          return stream.writableLength;
        },
      },
      { roomId },
      auth.user,
      options.connectionDeps,
    );
    live.set(ws, connection);
    heartbeat.add(ws);
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
      heartbeat.remove(ws);
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
      heartbeat.stop();
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

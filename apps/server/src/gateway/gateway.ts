import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { CloseCode } from '@xtalk/protocol';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { endsSession, type EndedSessions, type SessionEnds } from '../accounts/index.js';
import type { Clock } from '../clock.js';
import { HttpError } from '../http-errors.js';
import { createConnection, type Connection, type ConnectionDeps } from './connection.js';
import { createDeadlines, type Deadlines } from './deadlines.js';
import { createHeartbeat, type Heartbeat } from './heartbeat.js';
import type { PeerSocket } from './peer-socket.js';
import { clientAddress, type CappedSocket } from './socket-caps.js';
import { createLogSampler } from '../log-sampler.js';
import type { MetricsReport } from '../metrics/index.js';
import { authoriseUpgrade, type AuthorisedUpgrade, type UpgradeAuthOptions } from './upgrade-auth.js';
import { closeSpread, DRAINING_REFUSAL, RESTART_REASON } from './socket-drain.js';
import { ipCapRefusal, refuse, userCapRefusal, type UpgradeCaps } from './upgrade-refusal.js';
import { createWriteBatcher, textFrame, binaryFrame, type WriteBatcher } from './write-batcher.js';

export { isAllowedOrigin } from './upgrade-auth.js';

export interface GatewayOptions extends UpgradeAuthOptions {
  connectionDeps: ConnectionDeps;
  heartbeatMs: number;
  maxFrameBytes: number;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Caps on open sockets (per address, per user, one per session); none without. */
  caps?: UpgradeCaps;
  /** Where sockets opened and closed are counted (/metrics); nowhere without. */
  metrics?: Pick<MetricsReport, 'socketOpened' | 'socketClosed'>;
  /** Where the gateway hears of ended sign-in sessions, whose sockets it closes; none without. */
  sessionEnds?: Pick<SessionEnds, 'onEnded' | 'onMissed' | 'endedAmong'>;
}

/**
 * The socket as the connection (PeerSocket) and the caps (CappedSocket) see it. One small object per
 * socket with its methods on the prototype, instead of an object literal with a getter and four closures
 * (memory per connection).
 */
class WsPeer implements PeerSocket, CappedSocket {
  connection!: Connection;
  constructor(
    readonly ws: WebSocket,
    private readonly stream: Duplex,
    private readonly batcher: WriteBatcher,
    /** Where the caps counted the socket (empty without caps). */
    readonly ip: string,
    readonly sessionId: string,
    /** The sign-in session of the token it was opened with (none: a token made before they were stored). */
    readonly signInId: string | undefined,
  ) {}

  // the upgraded stream is the one `ws` writes to: a frame written here keeps its place among ws's own
  // (ping, close); once ws is closing nothing more is sent, as ws.send would refuse
  sendText(data: string | Buffer) {
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.batcher.write(this.stream, textFrame(typeof data === 'string' ? Buffer.from(data) : data));
  }
  sendBinary(data: Uint8Array) {
    this.ws.send(data, { binary: true });
  }
  sendTextThenBinary(text: Buffer, binary: Buffer) {
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.batcher.write(this.stream, textFrame(text));
    this.batcher.write(this.stream, binaryFrame(binary));
  }
  close(code: number, reason: string) {
    this.ws.close(code, reason);
  }
  // what ws.bufferedAmount adds to this (its sender's queue) is only ever used while compressing or
  // reading a Blob, neither of which this server does; read per delivery, the stream is cheaper
  get bufferedAmount() {
    return this.stream.writableLength;
  }
  /** Another socket took over this one's session. */
  replace() {
    this.ws.close(CloseCode.SessionEnded, 'This session was opened again elsewhere.');
  }
}

/** Who is in a room as the process goes, for the next one (decision 0161); an error never holds the shutdown. */
async function rememberPresent(options: GatewayOptions, connections: Connection[]) {
  const returners = options.connectionDeps.returners;
  if (!returners) return;
  const people = connections
    .filter((connection) => connection.present)
    .map((connection) => ({ roomId: connection.roomId, username: connection.user.username }));
  await returners
    .remember(people)
    .catch((error: unknown) => options.logger.warn({ err: error }, 'could not remember who was present'));
}

/** What the gateway's steps share: the open sockets, their timers, and whether the gateway is closing. */
interface Sockets {
  live: Map<WebSocket, WsPeer>;
  heartbeat: Heartbeat;
  /** Token expiry: one timer for every socket (deadlines.ts), not a setTimeout each. */
  expiries: Deadlines<WebSocket>;
  /** Close handling still running (presence, LEAVE); shutdown waits for it before the database closes. */
  closings: Set<Promise<void>>;
  closing: boolean;
}

/** One listener of each kind for every socket, the socket being `this` (no closures per socket). */
function socketListeners(sockets: Sockets, options: GatewayOptions) {
  const { live } = sockets;
  // a client can break protocol on socket after socket: sampled per address
  const sampled = options.caps?.log ?? createLogSampler(options.logger, options.clock);
  return {
    onMessage(this: WebSocket, data: RawData, isBinary: boolean) {
      const connection = live.get(this)?.connection;
      if (!connection) return;
      const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      if (isBinary) connection.onBinary(buffer);
      else connection.onText(buffer.toString('utf8'));
    },
    onError(this: WebSocket, error: Error) {
      sampled.info('socket-error', { err: error }, 'socket error', live.get(this)?.ip);
    },
    onClose(this: WebSocket, code: number) {
      const peer = live.get(this);
      sockets.heartbeat.remove(this);
      sockets.expiries.remove(this);
      live.delete(this);
      if (!peer) return;
      options.metrics?.socketClosed(code);
      const { connection } = peer;
      // counted against the caps until now (a flooder's user waits before the next one)
      const caps = options.caps;
      if (caps) {
        caps.sockets.close(peer.ip, connection.user.id, peer.sessionId, peer);
        if (connection.flooded()) caps.sockets.penalise(connection.user.id);
      }
      const work = connection
        .onClose(!sockets.closing)
        .catch((error: unknown) => options.logger.error({ err: error }, 'close handling failed'));
      sockets.closings.add(work);
      void work.finally(() => sockets.closings.delete(work));
    },
  };
}
type SocketListeners = ReturnType<typeof socketListeners>;

/**
 * The upgrade listener: the caps, the authorisation, then the socket. Everything is checked before the
 * upgrade (path, origin, token, session), so a refused client gets a plain HTTP status, not a socket.
 */
function upgradeSteps(
  sockets: Sockets,
  wss: WebSocketServer,
  listeners: SocketListeners,
  options: GatewayOptions,
) {
  /** Text frames leave framed once, batched per socket and turn (write-batcher.ts, decision 0110, decision 0127). */
  const batcher = createWriteBatcher();

  function onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
    if (sockets.closing) return refuse(socket, DRAINING_REFUSAL);
    const caps = options.caps;
    const ip = caps ? clientAddress(request, caps.trustProxyHops) : '';
    const ipRefusal = caps && ipCapRefusal(caps, ip);
    if (ipRefusal) return refuse(socket, ipRefusal);
    // whatever happens before the socket opens (refused, dropped), the reservation is given back; once
    // open, the socket's caps take over (accept) and this listener, which holds the request, goes
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
    { auth, session, hello }: AuthorisedUpgrade,
    releaseIp: (() => void) | undefined,
  ) {
    if (sockets.closing) return refuse(socket, DRAINING_REFUSAL);
    const caps = options.caps;
    const userRefusal = caps && userCapRefusal(caps, auth.user.id, session.id);
    if (userRefusal) return refuse(socket, userRefusal);
    // the 101 answer waits for the end of the turn, and leaves in one write with READY when the hello
    // came in the URL: one system call per connect instead of two
    batcher.hold(socket);
    wss.handleUpgrade(request, socket, head, (ws) => {
      if (sockets.closing) return ws.close(CloseCode.ServiceRestart, RESTART_REASON);
      if (releaseIp) socket.off('close', releaseIp);
      const peer = new WsPeer(ws, socket, batcher, ip, session.id, auth.claims.sessionId);
      accept(peer, auth, session.room_id, hello);
    });
  }

  function accept(peer: WsPeer, auth: AuthorisedUpgrade['auth'], roomId: string, hello?: string) {
    const { ws } = peer;
    peer.connection = createConnection(peer, { roomId }, auth.user, options.connectionDeps);
    // the caps count the socket from here until onClose; a socket open for the same session is replaced
    options.caps?.sockets.open(peer.ip, auth.user.id, peer.sessionId, peer);
    sockets.live.set(ws, peer);
    options.metrics?.socketOpened();
    sockets.heartbeat.add(ws);
    sockets.expiries.add(ws, auth.claims.expiresAt * 1000 - options.clock.now());
    ws.on('message', listeners.onMessage);
    ws.on('error', listeners.onError);
    ws.on('close', listeners.onClose);
    // the hello of the URL, as if it were the socket's first frame (decision 0141)
    if (hello !== undefined) peer.connection.onText(hello);
  }

  return onUpgrade;
}

/**
 * Closes the sockets opened with sign-in sessions that ended, with the code the client takes for "signed
 * out". Sessions end seldom (a sign-out, a new password), so every open socket is looked at rather than
 * an index per user kept for every connection.
 */
function signOut(sockets: Sockets, ended: EndedSessions): void {
  for (const [ws, peer] of sockets.live) {
    if (endsSession(ended, { userId: peer.connection.user.id, sessionId: peer.signInId }))
      ws.close(CloseCode.SignedOut, 'You are signed out.');
  }
}

/** The bus was away: the sockets of sessions that ended meanwhile (their message lost) close now. */
async function signOutMissed(
  sockets: Sockets,
  ends: Pick<SessionEnds, 'endedAmong'>,
  logger: FastifyBaseLogger,
): Promise<void> {
  const open = [...sockets.live.values()].map((peer) => ({
    userId: peer.connection.user.id,
    sessionId: peer.signInId,
  }));
  if (open.length === 0) return;
  try {
    for (const ended of await ends.endedAmong(open)) signOut(sockets, ended);
  } catch (error) {
    logger.warn({ err: error }, 'could not check the sessions of open sockets again');
  }
}

/** Accepts WebSocket upgrades on /xtalk_ws/{sessionId}?t={token} and drains the sockets on shutdown. */
export function createGateway(app: FastifyInstance, options: GatewayOptions) {
  // clientTracking off: `live` is the list of sockets, and ws's own set costs a close listener per socket
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxFrameBytes,
    clientTracking: false,
  });
  const sockets: Sockets = {
    live: new Map(),
    heartbeat: createHeartbeat(options.heartbeatMs),
    expiries: createDeadlines<WebSocket>((ws) => ws.close(CloseCode.TokenExpired, 'Your login has expired.')),
    closings: new Set(),
    closing: false,
  };
  const onUpgrade = upgradeSteps(sockets, wss, socketListeners(sockets, options), options);
  app.server.on('upgrade', onUpgrade);
  const ends = options.sessionEnds;
  const stopHearingEnds = ends?.onEnded((ended) => signOut(sockets, ended));
  const stopMakingUp = ends?.onMissed(() => void signOutMissed(sockets, ends, options.logger));

  let drained: Promise<void> | undefined;
  /**
   * Stops taking sockets (503 with retry-after), lets every connection finish storing what it already
   * received, and closes the sockets with 1012 at an even pace over at most `spreadMs` (decision 0144).
   */
  function drain(spreadMs: number): Promise<void> {
    drained ??= (async () => {
      sockets.closing = true;
      // who left just before is announced now, not lost with the process (decision 0140)
      options.connectionDeps.departures?.release();
      sockets.heartbeat.stop();
      sockets.expiries.stop();
      const connections = [...sockets.live.entries()];
      // who was here is remembered before anyone is sent away, so their return is not announced as a JOIN
      await Promise.allSettled(connections.map(([, peer]) => peer.connection.settled()));
      await rememberPresent(
        options,
        connections.map(([, peer]) => peer.connection),
      );
      await closeSpread(connections, spreadMs, (peer) => peer.connection.settled());
      await Promise.allSettled([...sockets.closings]);
    })();
    return drained;
  }

  return {
    /** Local connection count. */
    size: () => sockets.live.size,
    drain,
    /** Shutdown: a drain without a spread if none ran, then nothing more is accepted. */
    async close(): Promise<void> {
      stopHearingEnds?.();
      stopMakingUp?.();
      await drain(0);
      app.server.off('upgrade', onUpgrade);
      wss.close();
    },
  };
}
export type Gateway = ReturnType<typeof createGateway>;

import {
  CloseCode,
  HELLO_IN_URL_PROTOCOL_VERSION,
  type ClientFrame,
  type ResumePosition,
  type serverFrameSchema,
} from '@xtalk/protocol';
import { loadRoomSchemas } from './load-room-schemas';
import { SpokenVersion } from './protocol-fallback';
import { binaryOf, parseServerFrame, positionAfter, type RoomPosition } from './socket-frames';
import type {
  ConnectionState,
  SessionInfo,
  SocketClientEvents,
  SocketClientOptions,
  WebSocketLike,
} from './socket-client-types';
import { SocketLiveness } from './socket-liveness';
import {
  ANSWER_TIMEOUT_MS,
  INITIAL_BACKOFF_MS,
  HELLO_FALLBACK_MS,
  MAX_BACKOFF_MS,
  GIVE_UP_AFTER_MS,
  SESSION_TIMEOUT_MS,
  backoffDelay,
  browserTimers,
  type Timers,
} from './socket-timing';

export type * from './socket-client-types';

/*
 * The room connection as a small state machine (spec section 4):
 *   idle -> connecting (session requested, socket opening) -> connected (hello sent) -> ready (READY).
 * A close with 1000 ends it (idle). Any other close goes to `reconnecting` and retries on its own with a
 * short jittered backoff (0.3 s, 0.6 s, then every 0.5-1 s), and at once when the browser says it is
 * online again or the tab comes back, each retry with a fresh session, so a server restart heals within
 * a second of the server answering, without a herd. The hello carries the protocol version and, on a
 * reconnect to the same room, where the client left off ({epoch, offset}): the server then sends
 * exactly what was missed and the message list is kept. A close with 1012 (the node drains for a restart)
 * is a handover: a new session at once, to whichever node answers, resumed by offset, with nothing shown.
 * A close with 4400 naming only older versions is a node of a rolling deploy: the client speaks the newest
 * of those and connects again (docs/decisions/0146). Any other 4400 means this page is older than the
 * server: no retry, the user is asked to reload. The WebSocket constructor, timers, the
 * random source and the browser's events are injected so this runs in Node tests.
 *
 * A socket can also die without a close; `SocketLiveness` (socket-liveness.ts, docs/decisions/0139)
 * finds it and has it given up here, and the outbox resends by client id, so nothing doubles.
 */

/** The code a browser reports for a connection that ended without a close frame (RFC 6455 7.1.5). */
export const CLOSED_ABNORMALLY = 1006;

function defaultIsFatal(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status < 500;
}

type Listeners = { [K in keyof SocketClientEvents]: Set<SocketClientEvents[K]> };

export class SocketClient {
  private readonly options: Required<Omit<SocketClientOptions, 'timers'>> & { timers: Timers };
  private readonly listeners: Listeners = {
    state: new Set(),
    session: new Set(),
    sessionError: new Set(),
    frame: new Set(),
    binary: new Set(),
    close: new Set(),
  };
  private socket: WebSocketLike | undefined;
  /** Loaded with the first session (loadRoomSchemas); no socket opens before it is here. */
  private frameSchema: typeof serverFrameSchema | undefined;
  private retryTimer: unknown;
  /** Whether the socket is alive: given up when the browser goes offline or it stays silent. */
  private readonly liveness: SocketLiveness;
  private retries = 0;
  /** When the client last began to reconnect: past GIVE_UP_AFTER_MS it gives up. */
  private reconnectingSince = 0;
  /** Bumped on every join/leave so late callbacks of an abandoned attempt are ignored. */
  private generation = 0;
  private currentState: ConnectionState = 'idle';
  private targetRoom: string | null = null;
  private session: SessionInfo | undefined;
  /** Where the client is in the room's log: sent as `resume` on a reconnect to the same room. */
  private position: RoomPosition | undefined;
  /** The protocol version the server said in its last READY (1 when it said none). */
  serverProtocolVersion = 1;
  /** The version the hello offers: PROTOCOL_VERSION, or less after an older node named what it speaks. */
  readonly spoken = new SpokenVersion();
  /** Counts READYs: a streamed voice clip belongs to the connection it started on. */
  readyCount = 0;
  constructor(options: SocketClientOptions) {
    this.options = {
      isFatal: defaultIsFatal,
      initialBackoffMs: INITIAL_BACKOFF_MS,
      maxBackoffMs: MAX_BACKOFF_MS,
      giveUpAfterMs: GIVE_UP_AFTER_MS,
      now: Date.now,
      random: Math.random,
      answerTimeoutMs: ANSWER_TIMEOUT_MS,
      events: typeof window === 'undefined' ? undefined : window,
      timers: browserTimers,
      ...options,
    } as SocketClient['options'];
    this.liveness = new SocketLiveness(
      {
        isReady: () => this.currentState === 'ready',
        isReconnecting: () => this.currentState === 'reconnecting',
        serverProtocolVersion: () => this.serverProtocolVersion,
        sendText: (text) => this.sendText(text),
        lost: (retryAtOnce) => this.lost(retryAtOnce),
        retryNow: () => this.retryNow(),
      },
      this.options,
    );
  }

  /** The network or the tab is back: try now instead of waiting for the backoff. */
  private retryNow(): void {
    if (this.currentState !== 'reconnecting' || this.retryTimer === undefined) return;
    this.options.timers.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    void this.attempt();
  }

  /** The last {epoch, offset} seen in the current room, if any. */
  get resumePosition(): ResumePosition | undefined {
    const position = this.position;
    return position && position.roomId === this.roomId
      ? { epoch: position.epoch, offset: position.offset }
      : undefined;
  }

  get state(): ConnectionState {
    return this.currentState;
  }
  get roomId(): string | null {
    return this.session?.roomId ?? this.targetRoom;
  }
  get sessionId(): string | undefined {
    return this.session?.sessionId;
  }
  get isOpen(): boolean {
    return this.currentState === 'connected' || this.currentState === 'ready';
  }

  on<K extends keyof SocketClientEvents>(event: K, listener: SocketClientEvents[K]): () => void {
    this.listeners[event].add(listener);
    return () => this.listeners[event].delete(listener);
  }

  private emit<K extends keyof SocketClientEvents>(
    event: K,
    ...args: Parameters<SocketClientEvents[K]>
  ): void {
    for (const listener of this.listeners[event]) (listener as (...a: typeof args) => void)(...args);
  }

  private setState(next: ConnectionState): void {
    if (next === this.currentState) return;
    if (next === 'reconnecting') this.reconnectingSince = this.options.now();
    this.currentState = next;
    this.emit('state', next);
  }

  /** Join a room (null = create one) with a fresh session; any current socket is closed first. */
  join(roomId: string | null): void {
    this.dropSocket();
    this.liveness.watch(true);
    this.targetRoom = roomId;
    this.session = undefined;
    this.position = undefined;
    this.retries = 0;
    this.setState('connecting');
    void this.attempt();
  }

  /** 'Tap to Reconnect': retry the current room now with a fresh session, resetting the backoff. */
  reconnectNow(): void {
    this.dropSocket();
    this.liveness.watch(true);
    this.retries = 0;
    this.targetRoom = this.roomId;
    this.setState('reconnecting');
    void this.attempt();
  }

  /** Intentional leave: close with 1000 and stay idle. */
  leave(): void {
    this.dropSocket();
    this.liveness.watch(false);
    this.setState('idle');
  }

  send(frame: ClientFrame): boolean {
    if (!this.sendText(JSON.stringify(frame))) return false;
    if (frame.type === 'chat') this.liveness.answerOwed();
    return true;
  }

  private sendText(text: string): boolean {
    if (!this.socket || !this.isOpen) return false;
    this.socket.send(text);
    return true;
  }

  /** A voice clip (Ogg/Opus) as one binary frame; false when not connected. */
  sendBinary(data: Uint8Array): boolean {
    if (!this.socket || !this.isOpen) return false;
    this.socket.send(data);
    return true;
  }

  private dropSocket(reason = 'leave'): void {
    this.generation++;
    if (this.retryTimer !== undefined) this.options.timers.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.liveness.reset();
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
      try {
        socket.close(CloseCode.Normal, reason);
      } catch (error) {
        console.warn('[socket] close failed', error);
      }
    }
  }

  /**
   * The socket is taken for dead (silent, or the browser went offline): it is closed and the client goes
   * on as after an abnormal close, at once when it was silence (the network may be fine), after the
   * backoff when offline (`online` wakes it).
   */
  private lost(retryAtOnce: boolean): void {
    if (!this.socket) return;
    this.dropSocket('connection lost');
    this.emit('close', CLOSED_ABNORMALLY, false);
    this.setState('reconnecting');
    if (retryAtOnce) void this.attempt();
    else this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.options.now() - this.reconnectingSince >= this.options.giveUpAfterMs) {
      this.setState('disconnected');
      return;
    }
    const delay = backoffDelay(
      this.retries,
      this.options.initialBackoffMs,
      this.options.maxBackoffMs,
      this.options.random,
    );
    this.retries++;
    const generation = this.generation;
    this.retryTimer = this.options.timers.setTimeout(() => {
      this.retryTimer = undefined;
      if (generation === this.generation) void this.attempt();
    }, delay);
  }

  /** Runs `request` with a signal that aborts it after SESSION_TIMEOUT_MS. */
  private async withTimeout<T>(request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const { timers } = this.options;
    const timer = timers.setTimeout(() => controller.abort(), SESSION_TIMEOUT_MS);
    try {
      return await request(controller.signal);
    } finally {
      timers.clearTimeout(timer);
    }
  }

  private async attempt(): Promise<void> {
    const generation = this.generation;
    let info: SessionInfo;
    try {
      // the frame schema loads (decision 0084) while the session is asked for; a socket opens only with it
      const schemas = loadRoomSchemas();
      info = await this.withTimeout((signal) => this.options.openSession(this.targetRoom, signal));
      this.frameSchema = (await schemas).serverFrameSchema;
    } catch (error) {
      if (generation !== this.generation) return;
      const fatal = this.options.isFatal(error);
      this.emit('sessionError', error, fatal);
      if (fatal) {
        this.setState('idle');
        return;
      }
      this.setState('reconnecting');
      this.scheduleRetry();
      return;
    }
    if (generation !== this.generation) return;
    this.session = info;
    this.targetRoom = info.roomId;
    if (this.position && this.position.roomId !== info.roomId) this.position = undefined;
    this.emit('session', info, this.position !== undefined);
    this.open(info, generation);
  }

  private open(info: SessionInfo, generation: number): void {
    // protocol 5: the hello rides in the URL, so READY follows the 101 without a round trip (0141)
    const hello = JSON.stringify(this.helloFor(info.roomId));
    const inUrl = (info.protocolVersion ?? 0) >= HELLO_IN_URL_PROTOCOL_VERSION;
    const socket = this.options.createSocket(
      inUrl ? `${info.url}&hello=${encodeURIComponent(hello)}` : info.url,
    );
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    const stale = () => generation !== this.generation;
    let heard = false;

    socket.onopen = () => {
      if (stale()) return;
      this.retries = 0;
      this.setState('connected');
      this.liveness.answerOwed();
      if (!inUrl) return socket.send(hello);
      // a node of an older version reads no URL hello: nothing comes, and the hello goes as a frame too
      this.options.timers.setTimeout(() => {
        if (!stale() && !heard) socket.send(hello);
      }, HELLO_FALLBACK_MS);
    };
    socket.onmessage = (event) => {
      if (stale()) return;
      heard = true;
      this.liveness.heard();
      this.receive(event.data);
    };
    socket.onerror = (event) => {
      // A close always follows an error; the close decides what happens next.
      if (!stale()) console.warn('[socket] error', event);
    };
    socket.onclose = (event) => {
      if (stale()) return;
      this.socket = undefined;
      this.liveness.reset();
      const refused = event.code === CloseCode.UnsupportedVersion;
      if (refused && this.spoken.fallBack(event.reason ?? '')) return this.handOver();
      this.emit('close', event.code, false);
      if (event.code === CloseCode.ServiceRestart) return this.handOver();
      if (
        event.code === CloseCode.Normal ||
        event.code === CloseCode.TokenExpired ||
        event.code === CloseCode.UnsupportedVersion
      ) {
        this.setState('idle');
      } else if (event.code === CloseCode.SessionEnded) {
        // Another tab took the session over: retrying by itself would make the tabs fight; wait for a tap.
        this.setState('disconnected');
      } else {
        this.setState('reconnecting');
        this.scheduleRetry();
      }
    };
  }

  /** A new connection at once, without the reconnecting banner; resumed by offset like any reconnect. */
  private handOver(): void {
    this.setState('handover');
    void this.attempt();
  }

  /** setUsername with the version this client speaks and, when known, where it left off. */
  private helloFor(roomId: string): ClientFrame {
    const hello = this.options.hello(roomId);
    if (hello.type !== 'setUsername') return hello;
    const resume = this.resumePosition;
    return { ...hello, protocolVersion: this.spoken.value, ...(resume ? { resume } : {}) };
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') {
      const binary = binaryOf(data);
      if (binary instanceof ArrayBuffer) this.emit('binary', binary);
      else void binary?.then((buffer) => this.emit('binary', buffer));
      return;
    }
    const frame = parseServerFrame(data, this.frameSchema);
    if (!frame) return;
    // an older node's refusal of this version comes as an error before its 4400: the close falls back
    const early = frame.type === 'error' && this.currentState !== 'ready';
    if (early && this.spoken.fallbackIn(frame.message) !== undefined) return;
    // frames of a replay come before READY: the position is only trusted once READY set its epoch
    if (this.session) this.position = positionAfter(this.position, frame, this.session.roomId);
    if (frame.type === 'system' && frame.message === 'READY') {
      this.serverProtocolVersion = frame.protocolVersion ?? 1;
      this.spoken.heard(this.serverProtocolVersion);
      this.readyCount += 1;
      this.liveness.ready();
      this.setState('ready');
    }
    this.emit('frame', frame);
  }
}

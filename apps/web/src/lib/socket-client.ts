import {
  CloseCode,
  PROTOCOL_VERSION,
  type ClientFrame,
  type ResumePosition,
  type ServerFrame,
  type serverFrameSchema,
} from '@xtalk/protocol';
import { loadRoomSchemas } from './load-room-schemas';
import type {
  ConnectionState,
  SessionInfo,
  SocketClientEvents,
  SocketClientOptions,
  WebSocketLike,
} from './socket-client-types';
import {
  ANSWER_TIMEOUT_MS,
  INITIAL_BACKOFF_MS,
  MAX_BACKOFF_MS,
  backoffDelay,
  browserTimers,
  createSilenceWatch,
  type Timers,
} from './socket-timing';

export { backoffDelay, INITIAL_BACKOFF_MS, MAX_BACKOFF_MS, ANSWER_TIMEOUT_MS, type Timers };
export type * from './socket-client-types';

/*
 * The room connection as a small state machine (spec section 4):
 *   idle -> connecting (session requested, socket opening) -> connected (hello sent) -> ready (READY).
 * A close with 1000 ends it (idle). Any other close goes to `reconnecting` and retries on its own with a
 * short jittered backoff (0.3 s, 0.6 s, then every 0.5-1 s), and at once when the browser says it is
 * online again or the tab comes back, each retry with a fresh session, so a server restart heals within
 * a second of the server answering, without a herd. The hello carries the protocol version and, on a
 * reconnect to the same room, where the client left off ({epoch, offset}): the server then sends
 * exactly what was missed and the message list is kept. A close with 4400 means this page is older
 * than the server: no retry, the user is asked to reload. The WebSocket constructor, timers, the
 * random source and the browser's events are injected so this runs in Node tests.
 *
 * A socket can also die without a close: a phone changes networks, Wi-Fi drops, a NAT forgets the
 * connection. The browser then reports nothing until its TCP gives up, which takes minutes, and the
 * server's pings are invisible to page code. So the client gives a socket up itself, and reconnects as
 * after an abnormal close (docs/decisions/0139):
 * - when the browser says it went offline (as engine.io's client does);
 * - when it sent something the server always answers (the hello, a chat message) and has heard nothing at
 *   all for `answerTimeoutMs`. Any frame counts: a socket that brings anything is alive.
 * The outbox resends what was not acknowledged by client id on the next READY, so nothing doubles.
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
  /** Runs while the socket owes an answer (the hello, a chat message); anything heard clears it. */
  private readonly silence: ReturnType<typeof createSilenceWatch>;
  /** Whether `offline` is listened for: from the first join until leave. */
  private watchingNetwork = false;
  private retries = 0;
  /** Bumped on every join/leave so late callbacks of an abandoned attempt are ignored. */
  private generation = 0;
  private currentState: ConnectionState = 'idle';
  private targetRoom: string | null = null;
  private session: SessionInfo | undefined;
  /** Where the client is in the room's log: sent as `resume` on a reconnect to the same room. */
  private position: (ResumePosition & { roomId: string }) | undefined;
  /** The protocol version the server said in its last READY (1 when it said none). */
  serverProtocolVersion = 1;
  /** Counts READYs: a streamed voice clip belongs to the connection it started on. */
  readyCount = 0;
  private readonly wake = () => this.retryNow();
  private readonly onOffline = () => this.lost(false);
  private readonly onVisibility = () => {
    if ((globalThis as { document?: Document }).document?.visibilityState !== 'hidden') this.retryNow();
  };

  constructor(options: SocketClientOptions) {
    this.options = {
      isFatal: defaultIsFatal,
      initialBackoffMs: INITIAL_BACKOFF_MS,
      maxBackoffMs: MAX_BACKOFF_MS,
      random: Math.random,
      answerTimeoutMs: ANSWER_TIMEOUT_MS,
      events: typeof window === 'undefined' ? undefined : window,
      timers: browserTimers,
      ...options,
    } as SocketClient['options'];
    this.silence = createSilenceWatch(this.options.timers, this.options.answerTimeoutMs, () =>
      this.lost(true),
    );
  }

  /** Listens for the browser's hints that the network is back while reconnecting. */
  private listen(on: boolean): void {
    const events = this.options.events;
    if (!events) return;
    const method = on ? 'addEventListener' : 'removeEventListener';
    events[method]('online', this.wake);
    events[method]('focus', this.wake);
    events[method]('visibilitychange', this.onVisibility);
  }

  /** Listens for the browser saying the network is gone while a socket may be open. */
  private watchNetwork(on: boolean): void {
    const events = this.options.events;
    if (!events || on === this.watchingNetwork) return;
    this.watchingNetwork = on;
    events[on ? 'addEventListener' : 'removeEventListener']('offline', this.onOffline);
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
    if (next === 'reconnecting') this.listen(true);
    else if (this.currentState === 'reconnecting') this.listen(false);
    this.currentState = next;
    this.emit('state', next);
  }

  /** Join a room (null = create one) with a fresh session; any current socket is closed first. */
  join(roomId: string | null): void {
    this.dropSocket();
    this.watchNetwork(true);
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
    this.watchNetwork(true);
    this.retries = 0;
    this.targetRoom = this.roomId;
    this.setState('reconnecting');
    void this.attempt();
  }

  /** Intentional leave: close with 1000 and stay idle. */
  leave(): void {
    this.dropSocket();
    this.watchNetwork(false);
    this.setState('idle');
  }

  send(frame: ClientFrame): boolean {
    if (!this.socket || !this.isOpen) return false;
    this.socket.send(JSON.stringify(frame));
    if (frame.type === 'chat') this.silence.expect();
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
    this.silence.heard();
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

  private async attempt(): Promise<void> {
    const generation = this.generation;
    let info: SessionInfo;
    try {
      // the frame schema loads (decision 0084) while the session is asked for; a socket opens only with it
      const schemas = loadRoomSchemas();
      info = await this.options.openSession(this.targetRoom);
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
    const socket = this.options.createSocket(info.url);
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    const stale = () => generation !== this.generation;

    socket.onopen = () => {
      if (stale()) return;
      this.retries = 0;
      this.setState('connected');
      socket.send(JSON.stringify(this.helloFor(info.roomId)));
      this.silence.expect();
    };
    socket.onmessage = (event) => {
      if (stale()) return;
      this.silence.heard();
      this.receive(event.data);
    };
    socket.onerror = (event) => {
      // A close always follows an error; the close decides what happens next.
      if (!stale()) console.warn('[socket] error', event);
    };
    socket.onclose = (event) => {
      if (stale()) return;
      this.socket = undefined;
      this.silence.heard();
      this.emit('close', event.code, false);
      if (
        event.code === CloseCode.Normal ||
        event.code === CloseCode.TokenExpired ||
        event.code === CloseCode.UnsupportedVersion
      ) {
        this.setState('idle');
      } else if (event.code === CloseCode.SessionEnded) {
        // Another tab took the session over: retrying by itself would make the tabs fight; wait for a tap.
        this.setState('reconnecting');
      } else {
        this.setState('reconnecting');
        this.scheduleRetry();
      }
    };
  }

  /** setUsername with the version this client speaks and, when known, where it left off. */
  private helloFor(roomId: string): ClientFrame {
    const hello = this.options.hello(roomId);
    if (hello.type !== 'setUsername') return hello;
    const resume = this.resumePosition;
    return { ...hello, protocolVersion: PROTOCOL_VERSION, ...(resume ? { resume } : {}) };
  }

  /** Follows the room's position: READY and RESYNC say where it is, logged frames move it on. */
  private track(frame: ServerFrame, roomId: string): void {
    if (frame.type === 'system') {
      if ((frame.message === 'READY' || frame.message === 'RESYNC') && frame.epoch !== undefined) {
        this.position = { roomId, epoch: frame.epoch, offset: frame.offset ?? 0 };
      }
      return;
    }
    const offset = (frame as { offset?: number }).offset;
    if (frame.type === 'error' || offset === undefined || !this.position) return;
    if (this.position.roomId === roomId && offset > this.position.offset) this.position.offset = offset;
  }

  private receive(data: unknown): void {
    if (typeof data === 'string') {
      let json: unknown;
      try {
        json = JSON.parse(data);
      } catch {
        console.warn('[socket] ignored a frame that is not JSON');
        return;
      }
      const parsed = this.frameSchema?.safeParse(json);
      if (!parsed?.success) {
        console.warn('[socket] ignored an unknown frame', json);
        return;
      }
      // frames of a replay come before READY: the position is only trusted once READY set its epoch
      if (this.session) this.track(parsed.data, this.session.roomId);
      if (parsed.data.type === 'system' && parsed.data.message === 'READY') {
        this.serverProtocolVersion = parsed.data.protocolVersion ?? 1;
        this.readyCount += 1;
        this.setState('ready');
      }
      this.emit('frame', parsed.data);
      return;
    }
    if (data instanceof ArrayBuffer) this.emit('binary', data);
    else if (ArrayBuffer.isView(data))
      this.emit('binary', new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice().buffer);
    else if (typeof Blob !== 'undefined' && data instanceof Blob)
      void data.arrayBuffer().then((buffer) => this.emit('binary', buffer));
  }
}

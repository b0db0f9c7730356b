import {
  CloseCode,
  PROTOCOL_VERSION,
  type ClientFrame,
  type ResumePosition,
  type ServerFrame,
  type serverFrameSchema,
} from '@xtalk/protocol';
import { loadRoomSchemas } from './load-room-schemas';

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
 */

export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'ready' | 'reconnecting';

/** The part of the browser WebSocket this client uses (the `ws` package and fakes fit too). */
export interface WebSocketLike {
  binaryType: string;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: { code: number; reason?: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  send(data: string | ArrayBufferLike | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
}
export type WebSocketFactory = (url: string) => WebSocketLike;

export interface SessionInfo {
  sessionId: string;
  roomId: string;
  /** Absolute ws(s):// URL to open for this session. */
  url: string;
}

export interface Timers {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export interface SocketClientEvents {
  state: (state: ConnectionState) => void;
  /**
   * A new session was obtained. `resumed`: it continues the room we were in from a known position (the
   * message list is kept); otherwise the message list should start empty.
   */
  session: (info: SessionInfo, resumed: boolean) => void;
  /** Requesting a session failed; `fatal` means no retry will follow. */
  sessionError: (error: unknown, fatal: boolean) => void;
  frame: (frame: ServerFrame) => void;
  binary: (data: ArrayBuffer) => void;
  close: (code: number, intentional: boolean) => void;
}

export interface SocketClientOptions {
  createSocket: WebSocketFactory;
  /** POST /xtalk for the room (null = a new room) and build the socket URL. */
  openSession: (roomId: string | null) => Promise<SessionInfo>;
  /** The first frame after open: setUsername with the current language. */
  hello: (roomId: string) => ClientFrame;
  /** Session errors not worth retrying (an HTTP answer such as 400/401/404). */
  isFatal?: (error: unknown) => boolean;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  timers?: Timers;
  /** 0 <= x < 1; spreads the retries of many clients (Math.random by default). */
  random?: () => number;
  /** Where `online`, `focus` and `visibilitychange` come from (the window in a browser). */
  events?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | undefined;
}

export const INITIAL_BACKOFF_MS = 300;
/** Low on purpose: a client is back within this long of the server answering again. */
export const MAX_BACKOFF_MS = 1000;

/**
 * Backoff before retry number `attempt` (0-based): 0.3 s, 0.6 s, then 1 s, each scaled by a random
 * factor in [0.5, 1) so clients dropped together do not come back together.
 */
export function backoffDelay(
  attempt: number,
  initial = INITIAL_BACKOFF_MS,
  max = MAX_BACKOFF_MS,
  random: () => number = Math.random,
): number {
  return Math.round(Math.min(initial * 2 ** attempt, max) * (0.5 + random() / 2));
}

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
  private readonly onVisibility = () => {
    if ((globalThis as { document?: Document }).document?.visibilityState !== 'hidden') this.retryNow();
  };

  constructor(options: SocketClientOptions) {
    this.options = {
      isFatal: defaultIsFatal,
      initialBackoffMs: INITIAL_BACKOFF_MS,
      maxBackoffMs: MAX_BACKOFF_MS,
      random: Math.random,
      events: typeof window === 'undefined' ? undefined : window,
      timers: {
        setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
        clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
      },
      ...options,
    } as SocketClient['options'];
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
    this.retries = 0;
    this.targetRoom = this.roomId;
    this.setState('reconnecting');
    void this.attempt();
  }

  /** Intentional leave: close with 1000 and stay idle. */
  leave(): void {
    this.dropSocket();
    this.setState('idle');
  }

  send(frame: ClientFrame): boolean {
    if (!this.socket || !this.isOpen) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  /** A voice clip (Ogg/Opus) as one binary frame; false when not connected. */
  sendBinary(data: Uint8Array): boolean {
    if (!this.socket || !this.isOpen) return false;
    this.socket.send(data);
    return true;
  }

  private dropSocket(): void {
    this.generation++;
    if (this.retryTimer !== undefined) this.options.timers.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
      try {
        socket.close(CloseCode.Normal, 'leave');
      } catch (error) {
        console.warn('[socket] close failed', error);
      }
    }
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
    };
    socket.onmessage = (event) => {
      if (!stale()) this.receive(event.data);
    };
    socket.onerror = (event) => {
      // A close always follows an error; the close decides what happens next.
      if (!stale()) console.warn('[socket] error', event);
    };
    socket.onclose = (event) => {
      if (stale()) return;
      this.socket = undefined;
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

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
import { CLOSED_ABNORMALLY, afterClose } from './socket-close';
import { SocketEmitter } from './socket-emitter';
import { SocketLiveness } from './socket-liveness';
import { RetrySchedule } from './socket-retry';
import { withDefaults, type ClientOptions } from './socket-client-options';
import { HELLO_FALLBACK_MS, SESSION_TIMEOUT_MS, withTimeout } from './socket-timing';

export type * from './socket-client-types';
export { CLOSED_ABNORMALLY };

/*
 * The room connection as a small state machine:
 *   idle -> connecting (session requested, socket opening) -> connected (hello sent) -> ready (READY).
 * A close with 1000 ends it (idle). Any other close goes to `reconnecting` and retries on its own with a
 * short jittered backoff (0.3 s, 0.6 s, then every 0.5-1 s), and at once when the browser says it is
 * online again or the tab comes back, each retry with a fresh session, so a server restart heals within
 * a second of the server answering, without a herd. The hello carries the protocol version and, on a
 * reconnect to the same room, where the client left off ({epoch, offset}): the server then sends
 * exactly what was missed and the message list is kept. What each close code leads to is in
 * socket-close.ts, the backoff in socket-retry.ts. A close with 4400 naming only older versions is a node
 * of a rolling deploy: the client speaks the newest of those and connects again (docs/decisions/0146).
 * The WebSocket constructor, timers, the random source and the browser's events are injected so this
 * runs in Node tests.
 *
 * A socket can also die without a close; `SocketLiveness` (socket-liveness.ts, docs/decisions/0139)
 * finds it and has it given up here, and the outbox resends by client id, so nothing doubles.
 */

export class SocketClient {
  private readonly options: ClientOptions;
  private readonly emitter = new SocketEmitter();
  private socket: WebSocketLike | undefined;
  /** Loaded with the first session (loadRoomSchemas); no socket opens before it is here. */
  private frameSchema: typeof serverFrameSchema | undefined;
  private readonly retry: RetrySchedule;
  /** Whether the socket is alive: given up when the browser goes offline or it stays silent. */
  private readonly liveness: SocketLiveness;
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
    this.options = withDefaults(options);
    this.retry = new RetrySchedule(this.options);
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
    if (this.currentState !== 'reconnecting' || !this.retry.waiting) return;
    this.retry.cancel();
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
    return this.emitter.on(event, listener);
  }

  private setState(next: ConnectionState): void {
    if (next === this.currentState) return;
    if (next === 'reconnecting') this.retry.started();
    this.currentState = next;
    this.emitter.emit('state', next);
  }

  /** Join a room (null = create one) with a fresh session; any current socket is closed first. */
  join(roomId: string | null): void {
    this.dropSocket();
    this.liveness.watch(true);
    this.targetRoom = roomId;
    this.session = undefined;
    this.position = undefined;
    this.retry.startOver();
    this.setState('connecting');
    void this.attempt();
  }

  /** 'Tap to Reconnect': retry the current room now with a fresh session, resetting the backoff. */
  reconnectNow(): void {
    this.dropSocket();
    this.liveness.watch(true);
    this.retry.startOver();
    this.targetRoom = this.roomId;
    this.setState('reconnecting');
    void this.attempt();
  }

  /**
   * Moves a ready connection to a new socket at once, as a handover: no reconnecting banner, resumed by
   * offset, the outbox sent again on READY. The room's home is back (socket-endpoints.ts).
   */
  move(): void {
    if (this.currentState !== 'ready') return;
    this.dropSocket('moving');
    this.handOver();
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
    this.retry.cancel();
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
    this.emitter.emit('close', CLOSED_ABNORMALLY, false);
    this.setState('reconnecting');
    if (retryAtOnce) void this.attempt();
    else this.scheduleRetry();
  }

  /** Tries again after the backoff, or gives up (`disconnected`) once it has retried long enough. */
  private scheduleRetry(): void {
    const generation = this.generation;
    const scheduled = this.retry.schedule(() => {
      if (generation === this.generation) void this.attempt();
    });
    if (!scheduled) this.setState('disconnected');
  }

  private async attempt(): Promise<void> {
    const generation = this.generation;
    let info: SessionInfo;
    try {
      // the frame schema loads (decision 0084) while the session is asked for; a socket opens only with it
      const schemas = loadRoomSchemas();
      info = await withTimeout(this.options.timers, SESSION_TIMEOUT_MS, (signal) =>
        this.options.openSession(this.targetRoom, signal),
      );
      this.frameSchema = (await schemas).serverFrameSchema;
    } catch (error) {
      if (generation !== this.generation) return;
      const fatal = this.options.isFatal(error);
      this.emitter.emit('sessionError', error, fatal);
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
    this.emitter.emit('session', info, this.position !== undefined);
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
      this.retry.startOver();
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
      this.emitter.emit('close', event.code, false);
      const next = afterClose(event.code);
      if (next === 'handover') return this.handOver();
      this.setState(next);
      if (next === 'reconnecting') this.scheduleRetry();
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
      if (binary instanceof ArrayBuffer) this.emitter.emit('binary', binary);
      else void binary?.then((buffer) => this.emitter.emit('binary', buffer));
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
    this.emitter.emit('frame', frame);
  }
}

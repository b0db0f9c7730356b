import type { ClientFrame, ServerFrame } from '@xtalk/protocol';
import type { Timers } from './socket-timing';

/* What the room client (socket-client.ts) is given and what it tells: its states, events and options. */

/**
 * `reconnecting` retries by itself; `disconnected` has given up (another tab took the session, or the
 * server stayed away too long) and waits for 'Tap to Reconnect'.
 * `handover`: the node closed with 1012 (it is draining for a restart) or named older protocol versions
 * (4400, a rolling deploy), and a new connection is on its way at once; nothing is shown for it. Should
 * that attempt fail, the client goes on to `reconnecting` as after any lost connection.
 */
export type ConnectionState =
  'idle' | 'connecting' | 'connected' | 'ready' | 'reconnecting' | 'handover' | 'disconnected';

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
  /** The version of the server that made the session (POST /xtalk); from 5 the hello goes in the URL. */
  protocolVersion?: number | undefined;
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
  /** `signal` aborts the request when it takes longer than SESSION_TIMEOUT_MS (a network that went dead). */
  openSession: (roomId: string | null, signal?: AbortSignal) => Promise<SessionInfo>;
  /** The first frame after open: setUsername with the current language. */
  hello: (roomId: string) => ClientFrame;
  /** Session errors not worth retrying (an HTTP answer such as 400/401/404). */
  isFatal?: (error: unknown) => boolean;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  timers?: Timers;
  /** 0 <= x < 1; spreads the retries of many clients (Math.random by default). */
  random?: () => number;
  /** Where `online`, `offline`, `focus` and `visibilitychange` come from (the window in a browser). */
  events?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | undefined;
  /** How long the client retries by itself before it gives up and waits for a tap (`disconnected`). */
  giveUpAfterMs?: number;
  /** The time, in ms (Date.now by default). */
  now?: () => number;
  /** How long a socket may stay silent after a frame the server answers before it is given up. */
  answerTimeoutMs?: number;
}

import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { loadRoomSchemas } from '#web/lib/load-room-schemas';
import { PROTOCOL_VERSION } from '@xtalk/protocol';
import {
  SocketClient,
  type ConnectionState,
  type SessionInfo,
  type WebSocketLike,
} from '#web/lib/socket-client';

/* The room client's tests drive it through these: a socket by hand, sessions that always succeed. */

/** A WebSocket stand-in the test drives by hand. */
export class FakeSocket implements WebSocketLike {
  static all: FakeSocket[] = [];
  binaryType = 'blob';
  onopen: WebSocketLike['onopen'] = null;
  onclose: WebSocketLike['onclose'] = null;
  onerror: WebSocketLike['onerror'] = null;
  onmessage: WebSocketLike['onmessage'] = null;
  sent: string[] = [];
  closedWith: number | undefined;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code;
  }
  // test controls
  open() {
    this.onopen?.({});
  }
  receive(data: unknown) {
    this.onmessage?.({
      data: typeof data === 'string' || data instanceof ArrayBuffer ? data : JSON.stringify(data),
    });
  }
  drop(code: number, reason?: string) {
    this.onerror?.({});
    this.onclose?.(reason === undefined ? { code } : { code, reason });
  }
}

export const last = () => FakeSocket.all[FakeSocket.all.length - 1]!;
/**
 * A test file's hooks: the frame schema, a lazily loaded chunk in the app (decision 0084), is loaded once
 * first, so an attempt then only waits on promises that are already settled, which a few microtask turns
 * (`flush`) let through; each test starts with no sockets, on fake timers, with warnings silenced.
 */
export function withFakeSockets() {
  beforeAll(loadRoomSchemas);
  beforeEach(() => {
    FakeSocket.all = [];
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
}

export const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

export function setup(
  openSession?: (room: string | null, signal?: AbortSignal) => Promise<SessionInfo>,
  events: EventTarget | undefined = undefined,
) {
  let n = 0;
  const sessions = vi.fn(
    openSession ??
      (async (room: string | null) => {
        n++;
        const roomId = room && room !== 'new' ? room : 'NEWROOM';
        return { sessionId: `s${n}`, roomId, url: `ws://test/xtalk_ws/s${n}?t=tok` };
      }),
  );
  const client = new SocketClient({
    createSocket: (url) => new FakeSocket(url),
    openSession: sessions,
    hello: (room) => ({ type: 'setUsername', username: 'g_me', language: 'en', room }),
    random: () => 1,
    events,
  });
  const states: ConnectionState[] = [];
  client.on('state', (s) => states.push(s));
  return { client, sessions, states };
}

/** READY in room ABC2345, epoch e1, at `offset`, from a server of `protocolVersion`. */
export const ready = (offset = 0, protocolVersion: number = PROTOCOL_VERSION) => ({
  type: 'system',
  message: 'READY',
  timestamp: 1,
  roomId: 'ABC2345',
  protocolVersion,
  epoch: 'e1',
  offset,
});
/** A logged message at `offset`. */
export const message = (offset: number) => ({
  type: 'message',
  id: offset,
  username: 'g_x',
  message: `m${offset}`,
  language: 'en',
  timestamp: offset,
  translations: {},
  isTutorial: false,
  offset,
});

/** The hello (setUsername) among what `socket` was sent, with what it offered. */
export const helloOf = (socket: FakeSocket) =>
  (
    socket.sent.map((data) => JSON.parse(data)) as {
      type: string;
      protocolVersion?: number;
      resume?: unknown;
    }[]
  ).find((frame) => frame.type === 'setUsername');

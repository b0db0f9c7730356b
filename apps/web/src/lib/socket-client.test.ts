import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SocketClient,
  backoffDelay,
  type ConnectionState,
  type SessionInfo,
  type WebSocketLike,
} from './socket-client';

/** A WebSocket stand-in the test drives by hand. */
class FakeSocket implements WebSocketLike {
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
  drop(code: number) {
    this.onerror?.({});
    this.onclose?.({ code });
  }
}

const last = () => FakeSocket.all[FakeSocket.all.length - 1]!;
const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

function setup(openSession?: (room: string | null) => Promise<SessionInfo>) {
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
  });
  const states: ConnectionState[] = [];
  client.on('state', (s) => states.push(s));
  return { client, sessions, states };
}

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('SocketClient', () => {
  it('goes idle -> connecting -> connected -> ready and sends setUsername first', async () => {
    const { client, states } = setup();
    const sessions: SessionInfo[] = [];
    client.on('session', (info) => sessions.push(info));
    client.join(null);
    await flush();
    expect(sessions[0]?.roomId).toBe('NEWROOM');
    expect(last().url).toBe('ws://test/xtalk_ws/s1?t=tok');
    expect(last().binaryType).toBe('arraybuffer');
    last().open();
    expect(JSON.parse(last().sent[0]!)).toEqual({
      type: 'setUsername',
      username: 'g_me',
      language: 'en',
      room: 'NEWROOM',
    });
    last().receive({ type: 'system', message: 'READY', timestamp: 1, roomId: 'NEWROOM', protocolVersion: 1 });
    expect(states).toEqual(['connecting', 'connected', 'ready']);
  });

  it('passes valid frames and binary audio on, and ignores unknown or broken frames', async () => {
    const { client } = setup();
    const frames: unknown[] = [];
    const audio: ArrayBuffer[] = [];
    client.on('frame', (f) => frames.push(f));
    client.on('binary', (b) => audio.push(b));
    client.join('ABC2345');
    await flush();
    last().open();
    last().receive({ type: 'noteComplete', originalTimestamp: 5, note: 'n' });
    last().receive({ type: 'mystery', x: 1 });
    last().receive('not json');
    last().receive(new ArrayBuffer(8));
    expect(frames).toEqual([{ type: 'noteComplete', originalTimestamp: 5, note: 'n' }]);
    expect(audio).toHaveLength(1);
  });

  it('refuses to send while not connected', async () => {
    const { client } = setup();
    expect(client.send({ type: 'setLanguage', language: 'ja', room: 'ABC2345' })).toBe(false);
    client.join('ABC2345');
    await flush();
    expect(client.send({ type: 'setLanguage', language: 'ja', room: 'ABC2345' })).toBe(false);
    last().open();
    expect(client.send({ type: 'setLanguage', language: 'ja', room: 'ABC2345' })).toBe(true);
  });

  it('reconnects on its own with a fresh session and backoff 1 s, 2 s, 4 s ... capped at 10 s', async () => {
    const { client, sessions, states } = setup();
    client.join('ABC2345');
    await flush();
    last().open();
    last().drop(1006);
    expect(client.state).toBe('reconnecting');

    const delays = [1000, 2000, 4000, 8000, 10_000, 10_000];
    for (const delay of delays) {
      const before = FakeSocket.all.length;
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(FakeSocket.all.length).toBe(before);
      await vi.advanceTimersByTimeAsync(1);
      expect(FakeSocket.all.length).toBe(before + 1);
      last().drop(1006); // the server is still down
    }
    expect(sessions).toHaveBeenCalledTimes(1 + delays.length);
    expect(sessions.mock.calls.every(([room]) => room === 'ABC2345')).toBe(true);

    // The server is back: the next attempt opens, and the backoff starts over.
    await vi.advanceTimersByTimeAsync(10_000);
    last().open();
    expect(client.state).toBe('connected');
    last().drop(1001);
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSocket.all.length).toBe(1 + delays.length + 2);
    expect(states.filter((s) => s === 'connected')).toHaveLength(2);
  });

  it('keeps retrying while the session request itself fails without an answer', async () => {
    let fail = true;
    const { client, sessions } = setup(async (room) => {
      if (fail) throw new TypeError('Failed to fetch');
      return { sessionId: 's', roomId: room ?? 'X', url: 'ws://test/s' };
    });
    const errors: boolean[] = [];
    client.on('sessionError', (_e, fatal) => errors.push(fatal));
    client.join('ABC2345');
    await flush();
    expect(client.state).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(1000);
    fail = false;
    await vi.advanceTimersByTimeAsync(2000);
    expect(errors).toEqual([false, false]);
    expect(sessions).toHaveBeenCalledTimes(3);
    last().open();
    expect(client.state).toBe('connected');
  });

  it('stops on a session error the server answered (e.g. 404 room)', async () => {
    const { client, sessions } = setup(async () => {
      throw Object.assign(new Error('Room not found.'), { status: 404 });
    });
    const errors: boolean[] = [];
    client.on('sessionError', (_e, fatal) => errors.push(fatal));
    client.join('ZZZ9999');
    await flush();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(errors).toEqual([true]);
    expect(sessions).toHaveBeenCalledTimes(1);
    expect(client.state).toBe('idle');
  });

  it('ends on close 1000 without retrying', async () => {
    const { client } = setup();
    const closes: number[] = [];
    client.on('close', (code) => closes.push(code));
    client.join('ABC2345');
    await flush();
    last().open();
    last().drop(1000);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(closes).toEqual([1000]);
    expect(client.state).toBe('idle');
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('waits for a tap after 4000 (session taken over) and reconnects at once on reconnectNow()', async () => {
    const { client, sessions } = setup();
    client.join('ABC2345');
    await flush();
    last().open();
    last().drop(4000);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(client.state).toBe('reconnecting');
    expect(FakeSocket.all).toHaveLength(1);
    client.reconnectNow();
    await flush();
    expect(sessions).toHaveBeenLastCalledWith('ABC2345');
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('closes with 1000 on leave and ignores the old socket afterwards', async () => {
    const { client } = setup();
    client.join('ABC2345');
    await flush();
    const socket = last();
    socket.open();
    client.leave();
    expect(socket.closedWith).toBe(1000);
    expect(client.state).toBe('idle');
    await vi.advanceTimersByTimeAsync(20_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('closes the old socket first when joining another room', async () => {
    const { client } = setup();
    client.join('AAA2222');
    await flush();
    const first = last();
    first.open();
    client.join('BBB3333');
    expect(first.closedWith).toBe(1000);
    await flush();
    expect(last().url).toContain('s2');
    expect(client.roomId).toBe('BBB3333');
  });

  it('drops a session that arrives after the user already left', async () => {
    let resolve!: (info: SessionInfo) => void;
    const { client } = setup(() => new Promise((r) => (resolve = r)));
    client.join('ABC2345');
    client.leave();
    resolve({ sessionId: 's', roomId: 'ABC2345', url: 'ws://test/s' });
    await flush();
    expect(FakeSocket.all).toHaveLength(0);
  });
});

describe('backoffDelay', () => {
  it('doubles from 1 s and caps at 10 s', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map((n) => backoffDelay(n))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000, 10_000,
    ]);
  });
});

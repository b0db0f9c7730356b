import { describe, expect, it, vi } from 'vitest';
import { CloseCode, PROTOCOL_VERSION } from '@xtalk/protocol';
import { FakeSocket, flush, last, message, ready, setup, withFakeSockets } from '#web/test/fake-room-socket';
import type { SessionInfo } from './socket-client';
import { GIVE_UP_AFTER_MS, HELLO_FALLBACK_MS, backoffDelay } from './socket-timing';

withFakeSockets();

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
      protocolVersion: PROTOCOL_VERSION,
    });
    last().receive({ type: 'system', message: 'READY', timestamp: 1, roomId: 'NEWROOM', protocolVersion: 1 });
    expect(states).toEqual(['connecting', 'connected', 'ready']);
  });

  it('puts the hello in the URL when the session says protocol 5, and sends it as a frame only when nothing comes', async () => {
    const { client } = setup(async (room) => ({
      sessionId: 's1',
      roomId: room ?? 'NEWROOM',
      url: 'ws://test/xtalk_ws/s1?t=tok',
      protocolVersion: 5,
    }));
    client.join('ABC2345');
    await flush();
    const url = new URL(last().url);
    expect(url.searchParams.get('t')).toBe('tok');
    const hello = {
      type: 'setUsername',
      username: 'g_me',
      language: 'en',
      room: 'ABC2345',
      protocolVersion: PROTOCOL_VERSION,
    };
    expect(JSON.parse(url.searchParams.get('hello')!)).toEqual(hello);
    last().open();
    await vi.advanceTimersByTimeAsync(HELLO_FALLBACK_MS - 1);
    expect(last().sent).toEqual([]);
    // a node of an older version read no URL hello: it goes as a frame as well
    await vi.advanceTimersByTimeAsync(1);
    expect(last().sent.map((data) => JSON.parse(data))).toEqual([hello]);

    // a server that read it answers at once: no frame follows
    client.reconnectNow();
    await flush();
    last().open();
    last().receive({ type: 'system', message: 'READY', timestamp: 1, roomId: 'ABC2345', protocolVersion: 5 });
    await vi.advanceTimersByTimeAsync(HELLO_FALLBACK_MS * 2);
    expect(last().sent).toEqual([]);
    expect(client.state).toBe('ready');
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

  it('reconnects on its own with a fresh session and backoff 0.3 s, 0.6 s, then capped at 1 s', async () => {
    const { client, sessions, states } = setup();
    client.join('ABC2345');
    await flush();
    last().open();
    last().drop(1006);
    expect(client.state).toBe('reconnecting');

    const delays = [300, 600, 1000, 1000, 1000, 1000];
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
    await vi.advanceTimersByTimeAsync(1000);
    last().open();
    expect(client.state).toBe('connected');
    last().drop(1001);
    await vi.advanceTimersByTimeAsync(300);
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
    await vi.advanceTimersByTimeAsync(300);
    fail = false;
    await vi.advanceTimersByTimeAsync(600);
    expect(errors).toEqual([false, false]);
    expect(sessions).toHaveBeenCalledTimes(3);
    last().open();
    expect(client.state).toBe('connected');
  });

  it('gives up once it has retried for a while, and a tap starts over', async () => {
    let fail = true;
    const { client, sessions } = setup(async (room) => {
      if (fail) throw new TypeError('Failed to fetch');
      return { sessionId: 's', roomId: room ?? 'X', url: 'ws://test/s' };
    });
    client.join('ABC2345');
    await flush();
    await vi.advanceTimersByTimeAsync(GIVE_UP_AFTER_MS - 1000);
    expect(client.state).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(2000);
    expect(client.state).toBe('disconnected');
    const tries = sessions.mock.calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sessions).toHaveBeenCalledTimes(tries);
    fail = false;
    client.reconnectNow();
    await flush();
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

  it('gives up at once after 4000 (session taken over), waits for a tap, and reconnects at once on reconnectNow()', async () => {
    const { client, sessions } = setup();
    client.join('ABC2345');
    await flush();
    last().open();
    last().drop(4000);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(client.state).toBe('disconnected');
    expect(FakeSocket.all).toHaveLength(1);
    client.reconnectNow();
    await flush();
    expect(sessions).toHaveBeenLastCalledWith('ABC2345', expect.any(AbortSignal));
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
  it('doubles from 0.3 s, caps at 1 s, and spreads clients over half of it', () => {
    expect([0, 1, 2, 3, 10].map((n) => backoffDelay(n, undefined, undefined, () => 1))).toEqual([
      300, 600, 1000, 1000, 1000,
    ]);
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, undefined, undefined, () => 0))).toEqual([
      150, 300, 500, 500,
    ]);
    // 1,000 clients dropped at once come back spread over [500, 1000) ms, not at one instant
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const delays = Array.from({ length: 1000 }, () => backoffDelay(5, undefined, undefined, random));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(500);
    expect(Math.max(...delays)).toBeLessThanOrEqual(1000);
    const buckets = new Set(delays.map((delay) => Math.min(9, Math.floor((delay - 500) / 50))));
    expect(buckets.size).toBe(10);
  });
});

describe('SocketClient resume and handshake', () => {
  it('resumes from the last offset seen in the same room and keeps the message list', async () => {
    const { client } = setup();
    const resumed: boolean[] = [];
    client.on('session', (_info, isResumed) => resumed.push(isResumed));
    client.join('ABC2345');
    await flush();
    last().open();
    last().receive(ready(4));
    last().receive(message(5));
    last().drop(1006);
    await vi.advanceTimersByTimeAsync(300);
    last().open();
    expect(JSON.parse(last().sent[0]!)).toMatchObject({ resume: { epoch: 'e1', offset: 5 } });
    expect(resumed).toEqual([false, true]);
    // another room starts afresh
    client.join('XYZ2345');
    await flush();
    last().open();
    expect(JSON.parse(last().sent[0]!).resume).toBeUndefined();
    expect(resumed).toEqual([false, true, false]);
  });

  it('tries at once when the browser is back online or the tab gets focus', async () => {
    const events = new EventTarget();
    const { client } = setup(undefined, events);
    client.join('ABC2345');
    await flush();
    last().open();
    last().drop(1006);
    const before = FakeSocket.all.length;
    events.dispatchEvent(new Event('online'));
    await flush();
    expect(FakeSocket.all.length).toBe(before + 1);
    last().drop(1006);
    events.dispatchEvent(new Event('focus'));
    await flush();
    expect(FakeSocket.all.length).toBe(before + 2);
  });

  it('stops and does not retry when the server refuses the protocol version (4400)', async () => {
    const { client } = setup();
    const closes: number[] = [];
    client.on('close', (code) => closes.push(code));
    client.join('ABC2345');
    await flush();
    last().open();
    last().drop(CloseCode.UnsupportedVersion);
    expect(client.state).toBe('idle');
    const before = FakeSocket.all.length;
    await vi.advanceTimersByTimeAsync(5000);
    expect(FakeSocket.all.length).toBe(before);
    expect(closes).toEqual([CloseCode.UnsupportedVersion]);
  });
});

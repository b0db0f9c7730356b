import { describe, expect, it, vi } from 'vitest';
import {
  FakeSocket,
  flush,
  last,
  ready as readyFrame,
  setup,
  withFakeSockets,
} from '#web/test/fake-room-socket';
import { CLOSED_ABNORMALLY } from './socket-client';
import {
  ANSWER_TIMEOUT_MS,
  PONG_TIMEOUT_MS,
  PROBE_AFTER_MS,
  PROBE_MIN_QUIET_MS,
  SESSION_TIMEOUT_MS,
} from './socket-timing';

/*
 * A socket that dies without a close (docs/decisions/0139): the client gives it up when the browser goes
 * offline, or when it owes an answer and hears nothing for ANSWER_TIMEOUT_MS.
 */

withFakeSockets();

/** READY from a server that does not answer pings (protocol 4), at offset 3. */
const READY = readyFrame(3, 4);
const chat = { type: 'chat', language: 'en', message: 'hi', room: 'ABC2345', clientId: 'c1' } as const;

/** A client in room ABC2345, READY on its first socket. */
async function ready(events?: EventTarget) {
  const made = setup(undefined, events);
  const closes: number[] = [];
  made.client.on('close', (code) => closes.push(code));
  made.client.join('ABC2345');
  await flush();
  last().open();
  last().receive(READY);
  return { ...made, closes };
}

describe('a socket that goes silent', () => {
  it('is given up when a chat message hears nothing back, and a new session follows at once', async () => {
    const { client, sessions, closes } = await ready();
    const first = last();
    expect(client.send(chat)).toBe(true);
    await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS - 1);
    expect(client.state).toBe('ready');
    await vi.advanceTimersByTimeAsync(1);
    await flush();
    expect(first.closedWith).toBe(1000);
    expect(closes).toEqual([CLOSED_ABNORMALLY]);
    expect(sessions).toHaveBeenCalledTimes(2);
    expect(FakeSocket.all).toHaveLength(2);
    // the new socket resumes where the old one left off
    last().open();
    expect(JSON.parse(last().sent[0]!)).toMatchObject({
      type: 'setUsername',
      resume: { epoch: 'e1', offset: 3 },
    });
  });

  it('is kept while anything at all comes in after the message', async () => {
    const { client, closes } = await ready();
    client.send(chat);
    await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS - 100);
    last().receive({ type: 'noteComplete', originalTimestamp: 5, note: 'n' });
    await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS * 3);
    expect(client.state).toBe('ready');
    expect(closes).toEqual([]);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('counts from the oldest answer owed, not the latest message', async () => {
    const { client } = await ready();
    client.send(chat);
    await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS / 2);
    client.send({ ...chat, clientId: 'c2' });
    await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS / 2);
    await flush();
    expect(client.state).not.toBe('ready');
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('is given up when the hello is never answered', async () => {
    const { client, sessions } = setup();
    client.join('ABC2345');
    await flush();
    last().open();
    expect(client.state).toBe('connected');
    await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS);
    await flush();
    expect(sessions).toHaveBeenCalledTimes(2);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('is not watched when nothing is owed: a quiet room stays connected', async () => {
    const { client } = await ready();
    client.send({ type: 'setLanguage', language: 'ja', room: 'ABC2345' });
    await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS * 6);
    expect(client.state).toBe('ready');
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('leaves no watch behind a normal close or a leave', async () => {
    const { client } = await ready();
    client.send(chat);
    client.leave();
    await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS * 2);
    expect(client.state).toBe('idle');
    expect(FakeSocket.all).toHaveLength(1);
  });
});

describe('a silent socket on a server that answers pings (protocol 5)', () => {
  async function readyOn5() {
    const made = await ready();
    last().receive(readyFrame(3, 5));
    return made;
  }
  const pings = () => last().sent.filter((data) => data === '{"type":"ping"}').length;

  it('is asked before it is given up, and kept when it answers (a slow server is not a dead socket)', async () => {
    const { client, closes } = await readyOn5();
    client.send(chat);
    await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS);
    expect(pings()).toBe(1);
    expect(client.state).toBe('ready');
    await vi.advanceTimersByTimeAsync(PONG_TIMEOUT_MS - 1);
    last().receive({ type: 'pong' });
    await vi.advanceTimersByTimeAsync(PONG_TIMEOUT_MS * 2);
    expect(client.state).toBe('ready');
    expect(closes).toEqual([]);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('is given up when the ping is not answered either', async () => {
    const { client, closes } = await readyOn5();
    client.send(chat);
    await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS + PONG_TIMEOUT_MS - 1);
    expect(client.state).toBe('ready');
    await vi.advanceTimersByTimeAsync(1);
    await flush();
    expect(closes).toEqual([CLOSED_ABNORMALLY]);
    expect(FakeSocket.all).toHaveLength(2);
  });
});

describe('the browser going offline', () => {
  it('gives the socket up, waits in reconnecting, and is back at once when online', async () => {
    const events = new EventTarget();
    const { client, sessions, closes } = await ready(events);
    const first = last();
    let online = false;
    sessions.mockImplementation(async () => {
      if (!online) throw new TypeError('Failed to fetch');
      return { sessionId: 's2', roomId: 'ABC2345', url: 'ws://test/xtalk_ws/s2?t=tok' };
    });
    events.dispatchEvent(new Event('offline'));
    expect(client.state).toBe('reconnecting');
    expect(first.closedWith).toBe(1000);
    expect(closes).toEqual([CLOSED_ABNORMALLY]);
    // frames of the old socket are not taken any more
    const frames: unknown[] = [];
    client.on('frame', (frame) => frames.push(frame));
    first.receive(READY);
    expect(frames).toEqual([]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(FakeSocket.all).toHaveLength(1);
    online = true;
    const tries = sessions.mock.calls.length;
    events.dispatchEvent(new Event('online'));
    await flush();
    expect(sessions).toHaveBeenCalledTimes(tries + 1);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('does nothing while idle, and is not listened for after leave', async () => {
    const events = new EventTarget();
    const { client, sessions } = await ready(events);
    client.leave();
    events.dispatchEvent(new Event('offline'));
    events.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(client.state).toBe('idle');
    expect(sessions).toHaveBeenCalledTimes(1);
  });
});

describe('asking a quiet socket (protocol 5)', () => {
  const sentPings = (socket: FakeSocket) => socket.sent.filter((data) => data === '{"type":"ping"}').length;

  async function readyOn(version: number, events?: EventTarget) {
    const made = setup(undefined, events);
    made.client.join('ABC2345');
    await flush();
    last().open();
    last().receive(readyFrame(3, version));
    return made;
  }

  it('pings after PROBE_AFTER_MS of silence, and gives the socket up when the ping is not answered', async () => {
    const { client } = await readyOn(5);
    const first = last();
    await vi.advanceTimersByTimeAsync(PROBE_AFTER_MS - 1);
    expect(sentPings(first)).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sentPings(first)).toBe(1);
    await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS);
    await flush();
    expect(client.state).not.toBe('ready');
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('keeps a socket that answers, and asks again only after the next silence', async () => {
    const { client } = await readyOn(5);
    await vi.advanceTimersByTimeAsync(PROBE_AFTER_MS);
    last().receive({ type: 'pong' });
    await vi.advanceTimersByTimeAsync(PROBE_AFTER_MS - 1);
    expect(sentPings(last())).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sentPings(last())).toBe(2);
    last().receive({ type: 'pong' });
    await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS * 2);
    expect(client.state).toBe('ready');
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('does not ask a socket that keeps bringing frames', async () => {
    await readyOn(5);
    for (let i = 0; i < 12; i++) {
      await vi.advanceTimersByTimeAsync(PROBE_AFTER_MS / 3);
      last().receive({ type: 'noteComplete', originalTimestamp: i, note: 'n' });
    }
    expect(sentPings(last())).toBe(0);
  });

  it('does not ask a server older than protocol 5, nor while the page is hidden', async () => {
    const { client } = await readyOn(4);
    await vi.advanceTimersByTimeAsync(PROBE_AFTER_MS * 4);
    expect(sentPings(last())).toBe(0);
    expect(client.state).toBe('ready');

    client.leave();
    FakeSocket.all = [];
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const hidden = await readyOn(5);
    await vi.advanceTimersByTimeAsync(PROBE_AFTER_MS * 4);
    expect(FakeSocket.all).toHaveLength(1);
    expect(sentPings(last())).toBe(0);
    expect(hidden.client.state).toBe('ready');
    visibility.mockRestore();
  });

  it('asks at once when the tab gets focus or the network is back, once while the answer is owed', async () => {
    const events = new EventTarget();
    await readyOn(5, events);
    events.dispatchEvent(new Event('focus'));
    expect(sentPings(last())).toBe(0); // heard READY just now
    await vi.advanceTimersByTimeAsync(PROBE_MIN_QUIET_MS);
    events.dispatchEvent(new Event('focus'));
    expect(sentPings(last())).toBe(1);
    events.dispatchEvent(new Event('online'));
    expect(sentPings(last())).toBe(1);
    last().receive({ type: 'pong' });
    await vi.advanceTimersByTimeAsync(PROBE_MIN_QUIET_MS);
    events.dispatchEvent(new Event('online'));
    expect(sentPings(last())).toBe(2);
  });
});

describe('a session request on a dead network', () => {
  it('is aborted after SESSION_TIMEOUT_MS, and the next attempt follows on the backoff', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const { client, sessions } = setup(
      (room, signal) =>
        new Promise((resolve, reject) => {
          signals.push(signal);
          // the first request hangs as on a dead network, until aborted; the next one is answered
          if (signals.length > 1)
            return resolve({
              sessionId: 's2',
              roomId: room ?? 'NEWROOM',
              url: 'ws://test/xtalk_ws/s2?t=tok',
            });
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    client.join('ABC2345');
    await flush();
    await vi.advanceTimersByTimeAsync(SESSION_TIMEOUT_MS - 1);
    expect(signals[0]?.aborted).toBe(false);
    expect(client.state).toBe('connecting');
    await vi.advanceTimersByTimeAsync(1);
    expect(signals[0]?.aborted).toBe(true);
    expect(client.state).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(1000);
    await flush();
    expect(sessions).toHaveBeenCalledTimes(2);
    expect(FakeSocket.all).toHaveLength(1);
    last().open();
    last().receive(READY);
    expect(client.state).toBe('ready');
  });
});

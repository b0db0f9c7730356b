import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { createHeartbeat } from './heartbeat.js';

/*
 * One timer for every socket: a peer that answers stays, one that does not is terminated; the sockets are
 * pinged a slice at a time, each once per interval.
 */

class FakeSocket extends EventEmitter {
  pings = 0;
  terminated = false;
  answers = true;
  ping() {
    this.pings++;
    if (this.answers) queueMicrotask(() => this.emit('pong'));
  }
  terminate() {
    this.terminated = true;
  }
}

describe('the shared heartbeat', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('pings every socket each interval and terminates the one that did not answer the last ping', async () => {
    const heartbeat = createHeartbeat(1000);
    const [alive, silent, removed] = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
    silent.answers = false;
    for (const socket of [alive, silent, removed]) heartbeat.add(socket as unknown as WebSocket);
    await vi.advanceTimersByTimeAsync(1000);
    expect([alive.pings, silent.pings, removed.pings]).toEqual([1, 1, 1]);
    heartbeat.remove(removed as unknown as WebSocket);
    expect(removed.listenerCount('pong')).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(alive).toMatchObject({ pings: 2, terminated: false });
    expect(silent).toMatchObject({ pings: 1, terminated: true });
    expect(removed).toMatchObject({ pings: 1, terminated: false });
    heartbeat.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(alive.pings).toBe(2);
  });

  it('pings one slice of the sockets per tick, each socket once per interval, never all at once', async () => {
    // the server's default: 30 s in slices of about a second
    const heartbeat = createHeartbeat(30_000);
    const sockets = Array.from({ length: 90 }, () => new FakeSocket());
    for (const socket of sockets) heartbeat.add(socket as unknown as WebSocket);
    const pinged = () => sockets.reduce((sum, socket) => sum + socket.pings, 0);
    const perTick: number[] = [];
    for (let tick = 0; tick < 60; tick++) {
      const before = pinged();
      await vi.advanceTimersByTimeAsync(1000);
      perTick.push(pinged() - before);
    }
    expect(perTick).toEqual(new Array(60).fill(3));
    expect(sockets.map((socket) => socket.pings)).toEqual(new Array(90).fill(2));
    expect(sockets.some((socket) => socket.terminated)).toBe(false);
    heartbeat.stop();
  });

  it('gives a silent peer a whole interval from its ping before terminating it', async () => {
    const heartbeat = createHeartbeat(3000, 3);
    const [first, silent, third] = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
    silent.answers = false;
    for (const socket of [first, silent, third]) heartbeat.add(socket as unknown as WebSocket);
    await vi.advanceTimersByTimeAsync(1000);
    expect([first.pings, silent.pings, third.pings]).toEqual([1, 0, 0]);
    await vi.advanceTimersByTimeAsync(1000); // the silent peer's ping
    expect([first.pings, silent.pings, third.pings]).toEqual([1, 1, 0]);
    await vi.advanceTimersByTimeAsync(2999);
    expect(silent.terminated).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(silent).toMatchObject({ pings: 1, terminated: true });
    expect([first.terminated, third.terminated]).toEqual([false, false]);
    expect([first.pings, third.pings]).toEqual([2, 1]);
    heartbeat.remove(silent as unknown as WebSocket);
    heartbeat.stop();
  });
});

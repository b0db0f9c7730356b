import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { createHeartbeat } from './heartbeat.js';

/* One interval for every socket: a peer that answers stays, one that does not is terminated. */

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
});

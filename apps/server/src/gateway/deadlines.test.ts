import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDeadlines } from './deadlines.js';

// The timer and the monotonic clock both move only when the test says, so a busy machine cannot make an
// item late; `late` is then exact.
const sleep = async (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('deadlines', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls each item once at its own deadline, in deadline order, not after it was removed', async () => {
    const due: Array<{ item: string; late: number }> = [];
    const start = performance.now();
    const wanted: Record<string, number> = { a: 60, b: 20, c: 40, d: 0, e: 30 };
    const deadlines = createDeadlines<string>((item) =>
      due.push({ item, late: performance.now() - start - wanted[item]! }),
    );
    for (const [item, delay] of Object.entries(wanted)) deadlines.add(item, delay);
    deadlines.remove('e');
    deadlines.add('c', 50); // moved later
    wanted.c = 50;
    expect(deadlines.size()).toBe(4);
    await sleep(120);
    expect(due.map(({ item }) => item)).toEqual(['d', 'b', 'c', 'a']);
    // each at its own deadline: neither early nor late
    for (const { late } of due) expect(late).toBe(0);
    expect(deadlines.size()).toBe(0);
    deadlines.stop();
  });

  it('keeps a heap order through many adds and removes', async () => {
    const due: number[] = [];
    const deadlines = createDeadlines<number>((item) => due.push(item));
    const delays = Array.from({ length: 200 }, (_, i) => (i * 37) % 50);
    delays.forEach((delay, i) => deadlines.add(i, delay));
    for (let i = 0; i < 200; i += 3) deadlines.remove(i);
    await sleep(100);
    const kept = delays.map((delay, i) => ({ delay, i })).filter(({ i }) => i % 3 !== 0);
    expect(due.map((i) => delays[i])).toEqual(kept.map(({ delay }) => delay).sort((x, y) => x - y));
    expect(new Set(due).size).toBe(kept.length);
    deadlines.stop();
  });
});

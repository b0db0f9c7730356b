import { describe, expect, it } from 'vitest';
import { createLogSampler } from './log-sampler.js';

/* Lines a client can cause: a few per kind and subject per interval, then a count on the next one. */

function sampler(settings = {}) {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  const write = (fields: object, message: string) =>
    void lines.push({ fields: fields as Record<string, unknown>, message });
  const clock = { at: 0, now: () => clock.at };
  const log = createLogSampler({ info: write, warn: write } as never, clock, settings);
  return { lines, clock, log };
}

describe('log sampler', () => {
  it('writes the first few of a subject per interval, then one line with the count left out', () => {
    const { lines, clock, log } = sampler({ intervalMs: 1000, perSubject: 3, perKind: 100 });
    for (let i = 0; i < 1000; i++) log.warn('slow-reader', { i }, 'dropped', 'user-1');
    expect(lines.map((line) => line.fields.i)).toEqual([0, 1, 2]);
    clock.at = 1000;
    log.warn('slow-reader', { i: 'next' }, 'dropped', 'user-1');
    expect(lines.at(-1)!.fields).toEqual({ i: 'next', suppressed: 997 });
  });

  it('counts each subject and kind apart', () => {
    const { lines, log } = sampler({ perSubject: 1, perKind: 100 });
    for (let i = 0; i < 10; i++) {
      log.info('rejected', {}, 'rejected', 'user-1');
      log.info('rejected', {}, 'rejected', 'user-2');
      log.info('flood', {}, 'flood', 'user-1');
    }
    expect(lines.map((line) => line.message)).toEqual(['rejected', 'rejected', 'flood']);
  });

  it('bounds a kind over all its subjects', () => {
    const { lines, log } = sampler({ perSubject: 3, perKind: 20 });
    for (let i = 0; i < 10_000; i++)
      log.info('socket-error', {}, 'socket error', `10.0.${i >> 8}.${i & 255}`);
    expect(lines).toHaveLength(20);
  });
});

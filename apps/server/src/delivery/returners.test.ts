import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileReturners } from './returners.js';

describe('file returners', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const file = () => {
    const dir = mkdtempSync(join(tmpdir(), 'xtalk-returners-'));
    dirs.push(dir);
    return join(dir, 'presence-at-shutdown.json');
  };

  it('knows the next process who was present, once each, within the grace from its start', async () => {
    const path = file();
    let now = 1_000;
    const clock = { now: () => now };
    await createFileReturners(path, 5_000, clock).remember([
      { roomId: 'R1', username: 'alice' },
      { roomId: 'R1', username: 'bob' },
    ]);
    now = 60_000; // the restart took longer than the grace: it counts from the new start
    const next = createFileReturners(path, 5_000, clock);
    expect(await next.returning('R1', 'alice')).toBe(true);
    expect(await next.returning('R1', 'alice')).toBe(false);
    expect(await next.returning('R2', 'bob')).toBe(false);
    now += 5_001;
    expect(await next.returning('R1', 'bob')).toBe(false);
    // read once: a third process waits for nobody
    expect(await createFileReturners(path, 5_000, clock).returning('R1', 'bob')).toBe(false);
  });

  it('writes nothing without a grace', async () => {
    const path = file();
    const clock = { now: () => 0 };
    await createFileReturners(path, 0, clock).remember([{ roomId: 'R1', username: 'alice' }]);
    expect(await createFileReturners(path, 5_000, clock).returning('R1', 'alice')).toBe(false);
  });
});

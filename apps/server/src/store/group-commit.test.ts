import { describe, expect, it } from 'vitest';
import { createGroupCommit } from './group-commit.js';

describe('group commit', () => {
  it('writes a lone item at once, then what arrived meanwhile as one batch, in order', async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const group = createGroupCommit<number, string>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await gate;
      return items.map((item) => `done ${item}`);
    });
    const first = group.submit(0);
    // wait until the first batch is being written, then submit more behind it
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [1, 2, 3, 4].map((item) => group.submit(item));
    release();
    expect(await Promise.all([first, ...rest])).toEqual(['done 0', 'done 1', 'done 2', 'done 3', 'done 4']);
    expect(batches).toEqual([[0], [1, 2, 3, 4]]);
  });

  it('fails only the batch whose write failed; the next batch is written', async () => {
    let calls = 0;
    const group = createGroupCommit<number, number>(async (items) => {
      calls += 1;
      if (calls === 1) throw new Error('disk full');
      return items;
    });
    const failed = group.submit(1);
    await expect(failed).rejects.toThrow('disk full');
    expect(await group.submit(2)).toBe(2);
  });

  it('caps a batch at maxBatch', async () => {
    const sizes: number[] = [];
    const group = createGroupCommit<number, number>(
      async (items) => {
        sizes.push(items.length);
        return items;
      },
      { maxBatch: 3 },
    );
    await Promise.all(Array.from({ length: 7 }, (_, i) => group.submit(i)));
    expect(sizes).toEqual([3, 3, 1]);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { AudioQueue } from './audio-queue';
import { controllablePlayer } from './controllable-player';

const clip = (name: string) => new Blob([name], { type: 'audio/wav' });
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('AudioQueue', () => {
  it('plays clips one by one in order', async () => {
    const { player, started } = controllablePlayer();
    const queue = new AudioQueue(player);
    queue.enqueue(clip('a'));
    queue.enqueue(clip('b'));
    expect(started).toHaveLength(1);
    expect(queue.pending).toBe(1);
    started[0]!.finish();
    await flush();
    expect(started).toHaveLength(2);
    expect(await started[1]!.clip.text()).toBe('b');
  });

  it('moves on to the next clip when one fails to play', async () => {
    const { player, started } = controllablePlayer();
    const onError = vi.fn();
    const queue = new AudioQueue(player, onError);
    queue.enqueue(clip('bad'));
    queue.enqueue(clip('good'));
    started[0]!.fail(new Error('decode error'));
    await flush();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'decode error' }));
    expect(started).toHaveLength(2);
    expect(queue.playing).toBe(true);
  });

  it('also survives a player that throws synchronously', async () => {
    let calls = 0;
    const onError = vi.fn();
    const queue = new AudioQueue(() => {
      calls++;
      if (calls === 1) throw new Error('no audio');
      return { done: Promise.resolve(), stop: () => {} };
    }, onError);
    queue.enqueue(clip('a'));
    queue.enqueue(clip('b'));
    await flush();
    expect(calls).toBe(2);
    expect(onError).toHaveBeenCalledOnce();
  });

  it('stop() halts the current clip and clears the queue', async () => {
    const { player, started } = controllablePlayer();
    const queue = new AudioQueue(player);
    queue.enqueue(clip('a'));
    queue.enqueue(clip('b'));
    queue.enqueue(clip('c'));
    queue.stop();
    await flush();
    expect(started[0]!.stopped).toBe(true);
    expect(started).toHaveLength(1);
    expect(queue.pending).toBe(0);
    expect(queue.playing).toBe(false);

    // The queue keeps working afterwards.
    queue.enqueue(clip('d'));
    expect(started).toHaveLength(2);
    expect(await started[1]!.clip.text()).toBe('d');
  });
});

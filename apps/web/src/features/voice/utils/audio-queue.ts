/*
 * Audio playback queue: received clips play one by one; a playback error moves on to the
 * next clip; stop() clears the queue and halts the clip playing now. The player is injected so the order
 * and error handling are testable without a browser audio stack.
 */

import { countPlaying } from './test-hooks';

export interface PlayHandle {
  /** Resolves when the clip ended, rejects when it could not be played. */
  done: Promise<void>;
  stop: () => void;
}
export type ClipPlayer = (clip: Blob) => PlayHandle;

export class AudioQueue {
  private readonly queue: Blob[] = [];
  private current: PlayHandle | undefined;
  private stopped = 0;

  constructor(
    private readonly player: ClipPlayer,
    private readonly onError: (error: unknown) => void = (error) => console.warn('[audio] playback', error),
  ) {}

  get pending(): number {
    return this.queue.length;
  }
  get playing(): boolean {
    return this.current !== undefined;
  }

  enqueue(clip: Blob): void {
    this.queue.push(clip);
    if (!this.current) void this.drain();
  }

  stop(): void {
    this.queue.length = 0;
    this.stopped++;
    const current = this.current;
    this.current = undefined;
    current?.stop();
  }

  private async drain(): Promise<void> {
    const epoch = this.stopped;
    while (this.queue.length > 0 && epoch === this.stopped) {
      const clip = this.queue.shift()!;
      let handle: PlayHandle;
      try {
        handle = this.player(clip);
      } catch (error) {
        this.onError(error);
        continue;
      }
      this.current = handle;
      try {
        await handle.done;
      } catch (error) {
        if (epoch === this.stopped) this.onError(error);
      }
      if (epoch !== this.stopped) return;
      this.current = undefined;
    }
  }
}

/** The browser player: an <audio> element on an object URL, released when done. */
export const htmlAudioPlayer: ClipPlayer = (clip) => {
  const url = URL.createObjectURL(clip);
  const audio = new Audio(url);
  let settle: (error?: unknown) => void = () => {};
  let sounding = false;
  const done = new Promise<void>((resolve, reject) => {
    settle = (error) => {
      if (sounding) countPlaying(-1);
      sounding = false;
      URL.revokeObjectURL(url);
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve();
    };
  });
  audio.onplaying = () => {
    if (!sounding) countPlaying(1);
    sounding = true;
  };
  audio.onended = () => settle();
  audio.onerror = () => settle(audio.error ?? new Error('Audio element error'));
  audio.play().catch((error: unknown) => settle(error));
  return {
    done,
    stop: () => {
      audio.pause();
      settle();
    },
  };
};

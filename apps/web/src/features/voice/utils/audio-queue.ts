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

/*
 * Every clip plays on one <audio> element. Safari (WebKit wherever media needs a gesture, as on iOS) lets
 * an element play outside a tap only once it has played inside one: the page's first tap plays a moment
 * of silence on it (`primeAudio`), and the clips that arrive later, outside any tap, may sound on it.
 * One element suffices: the queues play one clip at a time.
 */
let element: HTMLAudioElement | undefined;
const clipElement = () => (element ??= new Audio());

/** A tenth of a second of silence as a WAV (8 kHz, mono, 16-bit). */
function silence(): Blob {
  const samples = 800;
  const view = new DataView(new ArrayBuffer(44 + samples * 2));
  const text = (at: number, value: string) =>
    [...value].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples * 2, true);
  text(8, 'WAVEfmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 8000, true);
  view.setUint32(28, 16_000, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples * 2, true);
  return new Blob([view.buffer], { type: 'audio/wav' });
}

/** Called inside the page's first tap: the clips' element plays silence, so later clips may sound. */
export function primeAudio(): void {
  const audio = clipElement();
  if (!audio.paused) return;
  const url = URL.createObjectURL(silence());
  audio.onplaying = audio.onended = audio.onerror = null;
  audio.src = url;
  audio
    .play()
    .catch(() => undefined)
    .finally(() => URL.revokeObjectURL(url));
}

/** The browser player: the clips' <audio> element on an object URL, released when done. */
export const htmlAudioPlayer: ClipPlayer = (clip) => {
  const url = URL.createObjectURL(clip);
  const audio = clipElement();
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
  audio.src = url;
  audio.play().catch((error: unknown) => settle(error));
  return {
    done,
    stop: () => {
      audio.pause();
      settle();
    },
  };
};

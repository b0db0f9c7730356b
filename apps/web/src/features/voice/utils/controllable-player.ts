import type { PlayHandle } from './audio-queue';

/* For tests: a player whose clips finish (or fail) when the test says so. */

export function controllablePlayer<Clip = Blob>() {
  const started: Array<{ clip: Clip; finish: () => void; fail: (e: Error) => void; stopped: boolean }> = [];
  const player = (clip: Clip): PlayHandle => {
    let finish!: () => void;
    let fail!: (e: Error) => void;
    const done = new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    const entry = { clip, finish, fail, stopped: false };
    started.push(entry);
    return {
      done,
      stop: () => {
        entry.stopped = true;
        finish();
      },
    };
  };
  return { player, started };
}

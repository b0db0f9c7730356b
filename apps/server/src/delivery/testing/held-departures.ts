import type { Departures } from '../departures.js';

/**
 * A LEAVE grace that lasts until the test ends it: a closed connection's leave waits from its close until
 * `end()`, so a test waits on the grace having begun (`waiting`) instead of on a clock.
 */
export interface HeldDepartures extends Departures {
  /** Resolves once `count` leaves wait for the grace at the same time. */
  waiting(count?: number): Promise<void>;
  /** The grace ends for every leave waiting now; later ones wait for the next `end()`. */
  end(): void;
}

export function heldDepartures(): HeldDepartures {
  let held: Array<() => void> = [];
  let released = false;
  const watchers: Array<{ count: number; resolve: () => void }> = [];
  const tell = () => {
    for (const watcher of [...watchers])
      if (held.length >= watcher.count) {
        watchers.splice(watchers.indexOf(watcher), 1);
        watcher.resolve();
      }
  };
  const end = () => {
    const ending = held;
    held = [];
    for (const resolve of ending) resolve();
  };
  return {
    wait() {
      if (released) return Promise.resolve();
      return new Promise<void>((resolve) => {
        held.push(resolve);
        tell();
      });
    },
    release() {
      released = true;
      end();
    },
    end,
    waiting(count = 1) {
      return new Promise<void>((resolve) => {
        watchers.push({ count, resolve });
        tell();
      });
    },
  };
}

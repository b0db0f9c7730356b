/*
 * The order in which work reaches PGlite's one connection (decisions 0117 and 0118).
 *
 * Two lanes: chat's (foreground) and work that can wait (background: translation writes, credit spends).
 * Single statements are pipelined: several are handed to the engine at once, which runs them one after
 * another in the order given, so the database thread always has the next statement at hand instead of
 * waiting for a busy main thread to read a reply and send another. A transaction is exclusive: it starts
 * once every statement handed over before it has finished, and nothing else is handed over until it ends,
 * so no statement ever lands inside it.
 *
 * Foreground work is handed over first. Background statements are handed over only while no foreground
 * work waits, and at most MAX_BACKGROUND_AHEAD at a time, so a chat insert finds at most that many
 * background statements ahead of it.
 */

export type Lane = 'foreground' | 'background';

/** How many statements the engine may hold at once. */
export const MAX_IN_FLIGHT = 16;
/** How many of them may be background work (what a chat statement can find ahead of it). */
export const MAX_BACKGROUND_AHEAD = 4;

interface Work {
  exclusive: boolean;
  start: () => Promise<void>;
}

export function createLanes() {
  const waiting: Record<Lane, Work[]> = { foreground: [], background: [] };
  let inFlight = 0;
  let backgroundInFlight = 0;
  let exclusiveRunning = false;

  function pump(): void {
    while (!exclusiveRunning) {
      const lane: Lane = waiting.foreground.length > 0 ? 'foreground' : 'background';
      const work = waiting[lane][0];
      if (!work) return;
      if (work.exclusive) {
        if (inFlight > 0) return; // the statements handed over before it finish first
        waiting[lane].shift();
        exclusiveRunning = true;
        void work.start().finally(() => {
          exclusiveRunning = false;
          pump();
        });
        return;
      }
      if (inFlight >= MAX_IN_FLIGHT) return;
      if (lane === 'background' && backgroundInFlight >= MAX_BACKGROUND_AHEAD) return;
      waiting[lane].shift();
      inFlight += 1;
      if (lane === 'background') backgroundInFlight += 1;
      void work.start().finally(() => {
        inFlight -= 1;
        if (lane === 'background') backgroundInFlight -= 1;
        pump();
      });
    }
  }

  /**
   * Queues `work` in `lane`; `exclusive` for a transaction (or anything else that must have the
   * connection to itself, such as closing it).
   */
  return function enqueue<T>(lane: Lane, exclusive: boolean, work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      waiting[lane].push({
        exclusive,
        start: () => Promise.resolve().then(work).then(resolve, reject),
      });
      pump();
    });
  };
}

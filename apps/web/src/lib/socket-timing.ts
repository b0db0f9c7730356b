/*
 * The room client's clocks (socket-client.ts): how long it waits before retrying, and how long a socket
 * may stay silent while it owes an answer before the client gives it up (docs/decisions/0139).
 */

export interface Timers {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export const browserTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const INITIAL_BACKOFF_MS = 300;
/** Low on purpose: a client is back within this long of the server answering again. */
export const MAX_BACKOFF_MS = 1000;

/**
 * The server answers a chat message as soon as it is stored (milliseconds) and a hello once the replay is
 * written; ten seconds without a single frame after either is a dead socket, not a slow server.
 */
export const ANSWER_TIMEOUT_MS = 10_000;

/**
 * Backoff before retry number `attempt` (0-based): 0.3 s, 0.6 s, then 1 s, each scaled by a random
 * factor in [0.5, 1) so clients dropped together do not come back together.
 */
export function backoffDelay(
  attempt: number,
  initial = INITIAL_BACKOFF_MS,
  max = MAX_BACKOFF_MS,
  random: () => number = Math.random,
): number {
  return Math.round(Math.min(initial * 2 ** attempt, max) * (0.5 + random() / 2));
}

/**
 * Armed when the socket is sent something the server always answers, cleared by anything heard: when it
 * runs out, `onSilent` gives the socket up. Armed again while armed, it keeps the first deadline (the
 * oldest answer owed).
 */
export function createSilenceWatch(timers: Timers, timeoutMs: number, onSilent: () => void) {
  let timer: unknown;
  return {
    expect(): void {
      if (timer !== undefined) return;
      timer = timers.setTimeout(() => {
        timer = undefined;
        onSilent();
      }, timeoutMs);
    },
    heard(): void {
      if (timer === undefined) return;
      timers.clearTimeout(timer);
      timer = undefined;
    },
  };
}

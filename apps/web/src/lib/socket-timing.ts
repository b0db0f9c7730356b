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
 * How long the client retries by itself before it gives up and waits for a tap. A restart is back well
 * within it; past it, 'Disconnected.' is the truth.
 */
export const GIVE_UP_AFTER_MS = 30_000;

/**
 * The server answers a chat message as soon as it is stored (milliseconds) and a hello once the replay is
 * written; ten seconds without a single frame after either is a dead socket, not a slow server.
 */
export const ANSWER_TIMEOUT_MS = 10_000;
/**
 * How long a `ping` (protocol 5) may go unanswered. The server answers it at once, ahead of whatever it is
 * still working on, so this is a round trip and nothing else.
 */
export const PONG_TIMEOUT_MS = 5_000;

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
export function createSilenceWatch(timers: Timers, onSilent: () => void) {
  let timer: unknown;
  return {
    /** Something must be heard within `timeoutMs` (or within the wait already running). */
    expect(timeoutMs: number): void {
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
    /** Whether an answer is owed now. */
    owed: (): boolean => timer !== undefined,
  };
}

/**
 * With the hello in the socket's URL (protocol 5), how long the client waits for a first frame before it
 * sends the hello as a frame too: the socket may have reached a node of an older version (a rolling
 * deploy), which reads no URL hello. A server that did read it takes the second one as a language update.
 */
export const HELLO_FALLBACK_MS = 1_500;

/**
 * How long the session request of an attempt may take. On a network that went dead (the usual reason a
 * socket was given up, 0139) a request can hang until the browser's TCP gives up, minutes, and no retry
 * runs meanwhile; aborted, the attempt fails and the next one follows on the backoff.
 */
export const SESSION_TIMEOUT_MS = 10_000;

/**
 * A socket that has brought nothing for this long is asked whether it is alive (a `ping`, protocol 5),
 * while the page is visible: a listener who never sends would otherwise never find a dead socket.
 */
export const PROBE_AFTER_MS = 30_000;
/** A socket heard from this recently is not asked again when the tab or the network comes back. */
export const PROBE_MIN_QUIET_MS = 2_000;

/**
 * Calls `onQuiet` each time nothing has been heard for `quietMs`. It checks once per `quietMs` instead of
 * moving a timer on every frame, so a busy socket costs one timer per interval.
 */
export function createQuietWatch(
  timers: Timers,
  quietMs: number,
  onQuiet: () => void,
  now: () => number = Date.now,
) {
  let timer: unknown;
  let lastHeard = 0;
  function arm(delay: number) {
    timer = timers.setTimeout(() => {
      timer = undefined;
      const quiet = now() - lastHeard;
      if (quiet < quietMs) return arm(quietMs - quiet);
      lastHeard = now();
      arm(quietMs);
      onQuiet();
    }, delay);
  }
  const watch = {
    /** Starts watching (a socket got READY), as if something had just been heard. */
    start(): void {
      watch.stop();
      lastHeard = now();
      arm(quietMs);
    },
    heard(): void {
      lastHeard = now();
    },
    /** How long nothing has been heard. */
    quietFor: (): number => now() - lastHeard,
    stop(): void {
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
    },
  };
  return watch;
}

/** Runs `request` with a signal that aborts it after `timeoutMs`. */
export async function withTimeout<T>(
  timers: Timers,
  timeoutMs: number,
  request: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timer = timers.setTimeout(() => controller.abort(), timeoutMs);
  try {
    return await request(controller.signal);
  } finally {
    timers.clearTimeout(timer);
  }
}

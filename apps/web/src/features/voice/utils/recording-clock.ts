/*
 * The recorder's time (recorder-machine.ts): the clock it is given, so tests drive it by hand, and what
 * runs on it while a recording lasts: a tick a second for the timer and the stop at the time limit.
 */

export interface RecorderClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export const browserClock: RecorderClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
};

export const TICK_MS = 1000;

/**
 * A recording's time on `clock`: from `start`, `onTick` with the whole seconds so far every TICK_MS,
 * and `onLimit` once `maxMs` has run out, until `clear`.
 */
export function createRecordingTime(
  clock: RecorderClock,
  maxMs: number,
  onTick: (elapsedSeconds: number) => void,
  onLimit: () => void,
) {
  let startedAt = 0;
  let ticker: unknown;
  let limit: unknown;
  return {
    start(): void {
      startedAt = clock.now();
      ticker = clock.setInterval(() => onTick(Math.floor((clock.now() - startedAt) / 1000)), TICK_MS);
      limit = clock.setTimeout(onLimit, maxMs);
    },
    /** How long it has recorded, never past the limit. */
    durationMs: (): number => Math.min(maxMs, clock.now() - startedAt),
    clear(): void {
      if (ticker !== undefined) clock.clearInterval(ticker);
      if (limit !== undefined) clock.clearTimeout(limit);
      ticker = undefined;
      limit = undefined;
    },
  };
}

/** 75 -> '01:15'. */
export function formatTimer(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const mm = String(Math.floor(seconds / 60)).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return `${mm}:${ss}`;
}

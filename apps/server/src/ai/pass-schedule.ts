/*
 * When a streaming transcription runs its next interim pass (rescan-stream.ts, window-stream.ts): one
 * pass at a time, at most one start every `intervalMs`, and only when `take()` says there is something
 * new to hear (it also marks that as heard). A pass that ends schedules the next; a failed one goes to
 * `onError` unless the stream was aborted. `stop()` (the stream finishes or is aborted) ends the schedule;
 * `running` is the pass still under way, which the final pass waits for.
 */

export interface PassScheduleOptions {
  /** Least time between two starts (ms). */
  intervalMs: number;
  /** The stream's own signal: an aborted stream starts nothing and reports no error. */
  signal: AbortSignal;
  /** Whether there is something new to hear; a true answer counts it as heard. */
  take(): boolean;
  run(signal: AbortSignal): Promise<unknown>;
  onError?(error: unknown): void;
}

export interface PassSchedule {
  /** Something new arrived: start a pass now, or when the interval allows. */
  poke(): void;
  stop(): void;
  readonly running: Promise<void> | undefined;
}

export function createPassSchedule(options: PassScheduleOptions): PassSchedule {
  let running: Promise<void> | undefined;
  let lastStart = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  function poke(): void {
    if (running || timer || stopped || options.signal.aborted) return;
    const wait = lastStart + options.intervalMs - performance.now();
    if (wait > 0) {
      timer = setTimeout(() => {
        timer = undefined;
        poke();
      }, wait);
      return;
    }
    if (!options.take()) return;
    lastStart = performance.now();
    running = options
      .run(options.signal)
      .then(() => undefined)
      .catch((error: unknown) => {
        if (!options.signal.aborted) options.onError?.(error);
      })
      .finally(() => {
        running = undefined;
        poke();
      });
  }

  return {
    poke,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    get running() {
      return running;
    },
  };
}

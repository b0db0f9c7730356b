import { backoffDelay, type Timers } from './socket-timing';

/*
 * When the room client (socket-client.ts) tries again after a lost connection: a short jittered backoff
 * that starts over once a socket opens, and an end, past which it stops and waits for a tap.
 */

export interface RetryOptions {
  timers: Timers;
  now: () => number;
  random: () => number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** How long the client retries by itself before it gives up and waits for a tap. */
  giveUpAfterMs: number;
}

export class RetrySchedule {
  private timer: unknown;
  private retries = 0;
  /** When the client last began to reconnect: past `giveUpAfterMs` it gives up. */
  private since = 0;

  constructor(private readonly options: RetryOptions) {}

  /** The client began to reconnect: the time it may spend retrying starts now. */
  started(): void {
    this.since = this.options.now();
  }

  /** A socket opened, or the person asked anew: the next retry waits the shortest backoff again. */
  startOver(): void {
    this.retries = 0;
  }

  /** Whether a retry is waiting for its backoff to run out. */
  get waiting(): boolean {
    return this.timer !== undefined;
  }

  /** Runs `retry` after the next backoff; false, with nothing scheduled, once it has retried long enough. */
  schedule(retry: () => void): boolean {
    if (this.options.now() - this.since >= this.options.giveUpAfterMs) return false;
    const { initialBackoffMs, maxBackoffMs, random, timers } = this.options;
    const delay = backoffDelay(this.retries, initialBackoffMs, maxBackoffMs, random);
    this.retries++;
    this.timer = timers.setTimeout(() => {
      this.timer = undefined;
      retry();
    }, delay);
    return true;
  }

  /** The waiting retry, if any, does not run. */
  cancel(): void {
    if (this.timer !== undefined) this.options.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}

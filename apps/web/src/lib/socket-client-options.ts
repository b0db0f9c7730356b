import type { SocketClientOptions } from './socket-client-types';
import {
  ANSWER_TIMEOUT_MS,
  GIVE_UP_AFTER_MS,
  INITIAL_BACKOFF_MS,
  MAX_BACKOFF_MS,
  browserTimers,
  type Timers,
} from './socket-timing';

/* The room client's options (socket-client.ts) with what it assumes when it is not told. */

export type ClientOptions = Required<Omit<SocketClientOptions, 'timers'>> & { timers: Timers };

/** A session error is worth retrying unless the server answered it (a 4xx). */
function defaultIsFatal(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status < 500;
}

export function withDefaults(options: SocketClientOptions): ClientOptions {
  return {
    isFatal: defaultIsFatal,
    initialBackoffMs: INITIAL_BACKOFF_MS,
    maxBackoffMs: MAX_BACKOFF_MS,
    giveUpAfterMs: GIVE_UP_AFTER_MS,
    now: Date.now,
    random: Math.random,
    answerTimeoutMs: ANSWER_TIMEOUT_MS,
    events: typeof window === 'undefined' ? undefined : window,
    timers: browserTimers,
    ...options,
  } as ClientOptions;
}

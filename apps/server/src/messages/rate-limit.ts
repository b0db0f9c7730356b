import type { Clock } from '../clock.js';

/** A token bucket: `burst` frames at once, refilled at `perSecond`. One per connection. */
export function createTokenBucket(burst: number, perSecond: number, clock: Clock) {
  let tokens = burst;
  let last = clock.now();
  return {
    take(): boolean {
      const now = clock.now();
      tokens = Math.min(burst, tokens + ((now - last) / 1000) * perSecond);
      last = now;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

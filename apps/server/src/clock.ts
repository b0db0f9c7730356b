/** Time as the server's rules see it; tests inject their own so expiry can be tested without waiting. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

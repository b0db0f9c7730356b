import { BALANCE_COLOUR_THRESHOLDS, LOW_BALANCE_HINT_BELOW, type Balance } from '@xtalk/protocol';

/** What the user can spend: both parts (the server spends free first, then premium). */
export function totalCredits(balance: Balance): number {
  return balance.free + balance.premium;
}

export type BalanceTone = 'red' | 'orange' | 'green';

/**
 * The product's balance colours (docs/product.md#rules): red below 250, orange from 250 to 700 (both
 * included), green above 700.
 */
export function balanceTone(credits: number): BalanceTone {
  if (credits < BALANCE_COLOUR_THRESHOLDS.red) return 'red';
  if (credits <= BALANCE_COLOUR_THRESHOLDS.orange) return 'orange';
  return 'green';
}

/** The 'Replenishes in …' hint shows below 1,000 credits (docs/product.md#dialogs). */
export function showsReplenishHint(credits: number): boolean {
  return credits < LOW_BALANCE_HINT_BELOW;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
// Japan keeps UTC+9 all year (no daylight saving), so Tokyo's midnight is a fixed offset from UTC.
const TOKYO_OFFSET_MS = 9 * HOUR_MS;

/** Milliseconds from `nowMs` to the next 00:00 in Asia/Tokyo, when the free credits are topped up. */
export function msUntilTokyoMidnight(nowMs: number): number {
  const sinceTokyoMidnight = (((nowMs + TOKYO_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS;
  return DAY_MS - sinceTokyoMidnight;
}

/**
 * How long until the top-up, in the product's three fixed wordings: 'less than an hour', '~1 hour',
 * 'about N hours'. N is rounded to the nearest hour (5 h 40 min is "about 6 hours"), so the hint is never
 * more than half an hour off; under one hour it says so rather than "about 0/1 hours".
 */
export type ReplenishIn =
  { kind: 'underAnHour' } | { kind: 'aboutOneHour' } | { kind: 'hours'; hours: number };

export function replenishIn(nowMs: number): ReplenishIn {
  const left = msUntilTokyoMidnight(nowMs);
  if (left < HOUR_MS) return { kind: 'underAnHour' };
  const hours = Math.round(left / HOUR_MS);
  return hours <= 1 ? { kind: 'aboutOneHour' } : { kind: 'hours', hours };
}

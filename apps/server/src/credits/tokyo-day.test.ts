import { CREDITS_TIME_ZONE } from '@xtalk/protocol';
import { describe, expect, it } from 'vitest';
import { nextTokyoMidnight, tokyoDay } from './tokyo-day.js';

/* The arithmetic against the time-zone database, which the test may load (the server does not). */
const zoned = new Intl.DateTimeFormat('en-CA', {
  timeZone: CREDITS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const dayInTokyo = (ms: number) => {
  const parts = Object.fromEntries(zoned.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
};

describe('the Tokyo day', () => {
  it('changes at 15:00 UTC, as Asia/Tokyo midnight', () => {
    expect(tokyoDay(Date.UTC(2026, 10, 25, 14, 59, 59, 999))).toBe('2026-11-25');
    expect(tokyoDay(Date.UTC(2026, 10, 25, 15, 0, 0, 0))).toBe('2026-11-26');
    expect(tokyoDay(Date.UTC(2026, 11, 31, 15))).toBe('2027-01-01');
    expect(tokyoDay(Date.UTC(2028, 1, 28, 15))).toBe('2028-02-29');
  });

  it('agrees with the time-zone database around every midnight and noon from 1970 to 2100', () => {
    const start = Date.UTC(1970, 0, 1, 15);
    const end = Date.UTC(2100, 0, 1);
    const differing: number[] = [];
    // Tokyo midnights (a millisecond either side) and noons; a five-day stride meets every weekday and date
    for (let midnight = start; midnight < end; midnight += 86_400_000 * 5) {
      for (const ms of [midnight - 1, midnight, midnight + 43_200_000]) {
        if (tokyoDay(ms) !== dayInTokyo(ms)) differing.push(ms);
      }
    }
    expect(differing).toEqual([]);
  });

  it('names the next midnight as the first instant of the next day', () => {
    for (const ms of [
      Date.UTC(2026, 10, 25, 14, 59, 59, 999),
      Date.UTC(2026, 10, 25, 15),
      Date.UTC(2026, 5, 1),
    ]) {
      const next = nextTokyoMidnight(ms);
      expect(next).toBeGreaterThan(ms);
      expect(tokyoDay(next)).not.toBe(tokyoDay(ms));
      expect(tokyoDay(next - 1)).toBe(tokyoDay(ms));
    }
  });
});

import { describe, expect, it } from 'vitest';
import { balanceTone, msUntilTokyoMidnight, replenishIn, showsReplenishHint, totalCredits } from './balance';

/** A moment given as Tokyo wall-clock time (UTC+9, no daylight saving). */
const tokyo = (y: number, m: number, d: number, h: number, min = 0) => Date.UTC(y, m - 1, d, h - 9, min);

describe('balance colour', () => {
  it('is red below 250, orange from 250 to 700, green above 700', () => {
    expect([0, 1, 249].map(balanceTone)).toEqual(['red', 'red', 'red']);
    expect([250, 251, 699, 700].map(balanceTone)).toEqual(['orange', 'orange', 'orange', 'orange']);
    expect([701, 1000, 20_000].map(balanceTone)).toEqual(['green', 'green', 'green']);
  });

  it('counts both parts of the balance', () => {
    expect(totalCredits({ free: 200, premium: 1000 })).toBe(1200);
    expect(balanceTone(totalCredits({ free: 200, premium: 60 }))).toBe('orange');
  });

  it('hints at the replenishment only below 1,000', () => {
    expect(showsReplenishHint(999)).toBe(true);
    expect(showsReplenishHint(1000)).toBe(false);
  });
});

describe('replenishment at the end of the Tokyo day', () => {
  it('counts to the next 00:00 in Tokyo, whatever the UTC date', () => {
    expect(msUntilTokyoMidnight(tokyo(2026, 11, 23, 23, 30))).toBe(30 * 60_000);
    // 14:00 UTC is already 23:00 in Tokyo
    expect(msUntilTokyoMidnight(Date.UTC(2026, 10, 23, 14, 0))).toBe(3_600_000);
    // exactly midnight: a whole day until the next one
    expect(msUntilTokyoMidnight(tokyo(2026, 11, 24, 0, 0))).toBe(24 * 3_600_000);
    // across the year end
    expect(msUntilTokyoMidnight(tokyo(2026, 12, 31, 18, 0))).toBe(6 * 3_600_000);
  });

  it("says 'less than an hour', then '~1 hour', then 'about N hours' as the day goes back", () => {
    const at = (h: number, min: number) => replenishIn(tokyo(2026, 11, 23, h, min));
    expect(at(23, 59)).toEqual({ kind: 'underAnHour' });
    expect(at(23, 1)).toEqual({ kind: 'underAnHour' });
    expect(at(23, 0)).toEqual({ kind: 'aboutOneHour' });
    expect(at(22, 31)).toEqual({ kind: 'aboutOneHour' });
    expect(at(22, 30)).toEqual({ kind: 'hours', hours: 2 });
    expect(at(18, 20)).toEqual({ kind: 'hours', hours: 6 });
    expect(at(0, 10)).toEqual({ kind: 'hours', hours: 24 });
  });
});

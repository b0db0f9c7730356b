/*
 * The calendar day in Tokyo, which decides when free credits replenish (00:00 Asia/Tokyo, CREDITS_TIME_ZONE).
 * Tokyo has kept UTC+9 without daylight saving since 1951, so its days are UTC's shifted by nine hours.
 * Arithmetic rather than Intl.DateTimeFormat: the first Intl formatter a process makes looks through ICU's
 * locale list and maps much of the node binary's ICU data into the server's memory (decision 0129).
 * tokyo-day.test.ts checks the arithmetic against the time-zone database.
 */

const DAY_MS = 86_400_000;
const TOKYO_OFFSET_MS = 9 * 3_600_000;

/** 'YYYY-MM-DD' of the Tokyo day containing `ms`. */
export function tokyoDay(ms: number): string {
  return new Date(ms + TOKYO_OFFSET_MS).toISOString().slice(0, 10);
}

/** The first Tokyo midnight after `ms` (when free credits replenish next). */
export function nextTokyoMidnight(ms: number): number {
  return Math.floor((ms + TOKYO_OFFSET_MS) / DAY_MS + 1) * DAY_MS - TOKYO_OFFSET_MS;
}

import { CREDITS_TIME_ZONE } from '@xtalk/protocol';

/*
 * The calendar day in Tokyo, which decides when free credits replenish (00:00 Asia/Tokyo). Computed with
 * the time-zone database rather than a fixed +9 h so the rule reads as the spec says it.
 */
const format = new Intl.DateTimeFormat('en-CA', {
  timeZone: CREDITS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** 'YYYY-MM-DD' of the Tokyo day containing `ms`. */
export function tokyoDay(ms: number): string {
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

const DAY_MS = 86_400_000;
/** Tokyo has kept UTC+9 without daylight saving since 1951, so its midnights are this far from UTC's. */
const TOKYO_OFFSET_MS = 9 * 3_600_000;

/** The first Tokyo midnight after `ms` (when free credits replenish next). */
export function nextTokyoMidnight(ms: number): number {
  return Math.floor((ms + TOKYO_OFFSET_MS) / DAY_MS + 1) * DAY_MS - TOKYO_OFFSET_MS;
}

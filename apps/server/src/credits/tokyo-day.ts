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

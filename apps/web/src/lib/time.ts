import type { UiLanguage } from '@xtalk/protocol';
import { translate } from './i18n';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

function clock(date: Date): string {
  // 24-hour HH:MM in both languages.
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

/**
 * Relative time: under 60 s 'Just now'; under an hour 'N minutes ago'; same day
 * 'Today at HH:MM'; the day before 'Yesterday at HH:MM'; otherwise short month and day, then the time.
 * `now` is injectable so the rule is testable.
 */
export function formatRelativeTime(
  timestamp: number,
  language: UiLanguage,
  now: number = Date.now(),
): string {
  const elapsed = Math.max(0, now - timestamp);
  if (elapsed < MINUTE) return translate(language, 'time.justNow');
  if (elapsed < HOUR) {
    const minutes = Math.floor(elapsed / MINUTE);
    return minutes === 1
      ? translate(language, 'time.minuteAgo')
      : translate(language, 'time.minutesAgo', { n: minutes });
  }
  const date = new Date(timestamp);
  const today = startOfDay(new Date(now));
  const day = startOfDay(date);
  const time = clock(date);
  if (day === today) return translate(language, 'time.today', { time });
  // Compare calendar days, not 24 h spans, so DST days still count as "yesterday".
  const dayBefore = new Date(today);
  dayBefore.setDate(dayBefore.getDate() - 1);
  const yesterday = startOfDay(dayBefore);
  if (day === yesterday) return translate(language, 'time.yesterday', { time });
  const monthDay = new Intl.DateTimeFormat(localeFor(language), { month: 'short', day: 'numeric' }).format(
    date,
  );
  return `${monthDay} ${time}`;
}

/** The locale dates and times are written in for an interface language: ja-JP or en-US. */
export function localeFor(language: string): 'ja-JP' | 'en-US' {
  return language === 'ja' ? 'ja-JP' : 'en-US';
}

import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './time';

// Local-time constructors keep these independent of the machine's time zone.
const now = new Date(2025, 4, 20, 15, 30, 0).getTime();
const at = (day: number, hours: number, minutes: number, seconds = 0) =>
  new Date(2025, 4, day, hours, minutes, seconds).getTime();

describe('formatRelativeTime', () => {
  it('says Just now under a minute', () => {
    expect(formatRelativeTime(now - 59_000, 'en', now)).toBe('Just now');
    expect(formatRelativeTime(now, 'ja', now)).toBe('たった今');
  });

  it('counts minutes under an hour, singular for one', () => {
    expect(formatRelativeTime(now - 60_000, 'en', now)).toBe('1 minute ago');
    expect(formatRelativeTime(now - 119_000, 'en', now)).toBe('1 minute ago');
    expect(formatRelativeTime(now - 5 * 60_000, 'en', now)).toBe('5 minutes ago');
    expect(formatRelativeTime(now - 59 * 60_000, 'ja', now)).toBe('59分前');
    expect(formatRelativeTime(now - 60_000, 'ja', now)).toBe('1分前');
  });

  it('uses Today at HH:MM (24h) for earlier the same day', () => {
    expect(formatRelativeTime(at(20, 9, 5), 'en', now)).toBe('Today at 09:05');
    expect(formatRelativeTime(at(20, 0, 0), 'ja', now)).toBe('今日 00:00');
  });

  it('uses Yesterday at HH:MM for the previous calendar day, even under 24 hours ago', () => {
    expect(formatRelativeTime(at(19, 23, 59), 'en', now)).toBe('Yesterday at 23:59');
    expect(formatRelativeTime(at(19, 0, 1), 'ja', now)).toBe('昨日 00:01');
  });

  it('falls back to short month and day plus time', () => {
    expect(formatRelativeTime(at(18, 14, 3), 'en', now)).toBe('May 18 14:03');
    expect(formatRelativeTime(at(18, 14, 3), 'ja', now)).toBe('5月18日 14:03');
  });

  it('treats a timestamp slightly in the future (clock skew) as just now', () => {
    expect(formatRelativeTime(now + 5_000, 'en', now)).toBe('Just now');
  });
});

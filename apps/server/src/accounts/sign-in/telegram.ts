import { createHash, createHmac } from 'node:crypto';
import type { TelegramWidgetData } from '@xtalk/protocol';
import type { Clock } from '../../clock.js';
import { HttpError } from '../../http-errors.js';
import { sameText } from '../sessions/same-text.js';

/*
 * Telegram (platform tg), checked with TELEGRAM_BOT_TOKEN per Telegram's documented rules:
 * - tgw, the Login Widget: hash = hex(HMAC-SHA256(data-check-string, key = SHA256(bot token))).
 * - tga, a Mini App's initData: hash = hex(HMAC-SHA256(data-check-string,
 *   key = HMAC-SHA256("WebAppData" keyed, bot token))).
 * The data-check-string is every received field but `hash`, as key=value, sorted, joined by newlines.
 * Data older than a day (auth_date) is stale: a leaked copy must not sign someone in forever. Data dated
 * further ahead than clocks drift apart is refused too: it would stay fresh for longer than a day.
 */

const MAX_AGE_SECONDS = 24 * 3600;
const MAX_AHEAD_SECONDS = 5 * 60;

export interface TelegramUser {
  id: string;
  name: string;
}

function checkString(fields: Iterable<[string, string]>): string {
  return [...fields]
    .filter(([key]) => key !== 'hash')
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join('\n');
}

const sameHex = (a: string, b: string): boolean => sameText(a.toLowerCase(), b.toLowerCase());

export function createTelegramSignIn(botToken: string | undefined, clock: Clock) {
  function token(): string {
    if (!botToken) throw new HttpError(400, 'Telegram sign-in is not configured on this server.');
    return botToken;
  }

  function fresh(authDate: string): void {
    const age = Math.floor(clock.now() / 1000) - Number(authDate);
    if (!Number.isFinite(age) || age > MAX_AGE_SECONDS) {
      throw new HttpError(401, 'The Telegram sign-in data is too old; please sign in again.');
    }
    if (age < -MAX_AHEAD_SECONDS) {
      throw new HttpError(
        401,
        'The Telegram sign-in data is dated in the future; check the clock and sign in again.',
      );
    }
  }

  const fullName = (first: unknown, last: unknown) =>
    [first, last]
      .filter((part) => typeof part === 'string' && part !== '')
      .join(' ')
      .slice(0, 80);

  return {
    /** tgw: the Login Widget's data. */
    widget(data: TelegramWidgetData): TelegramUser {
      const key = createHash('sha256').update(token()).digest();
      const fields = Object.entries(data).map(([k, v]) => [k, String(v)] as [string, string]);
      const expected = createHmac('sha256', key).update(checkString(fields)).digest('hex');
      if (!sameHex(expected, data.hash))
        throw new HttpError(401, 'The Telegram data is not signed by our bot.');
      fresh(String(data.auth_date));
      return { id: String(data.id), name: fullName(data.first_name, data.last_name) };
    },

    /** tga: a Mini App's initData (the signedPayload), which must come with `data.bot`. */
    miniApp(initData: string, bot: string | undefined): TelegramUser {
      if (!initData || !bot) throw new HttpError(400, 'signedPayload and data.bot are required for tga.');
      const params = new URLSearchParams(initData);
      const hash = params.get('hash');
      if (!hash) throw new HttpError(401, 'The Telegram data carries no hash.');
      const key = createHmac('sha256', 'WebAppData').update(token()).digest();
      const expected = createHmac('sha256', key).update(checkString(params.entries())).digest('hex');
      if (!sameHex(expected, hash)) throw new HttpError(401, 'The Telegram data is not signed by our bot.');
      fresh(params.get('auth_date') ?? '');
      let user: { id?: unknown; first_name?: unknown; last_name?: unknown };
      try {
        user = JSON.parse(params.get('user') ?? '') as typeof user;
      } catch {
        throw new HttpError(400, 'The Telegram data carries no user.');
      }
      if (typeof user.id !== 'number' && typeof user.id !== 'string') {
        throw new HttpError(400, 'The Telegram data carries no user.');
      }
      return { id: String(user.id), name: fullName(user.first_name, user.last_name) };
    },
  };
}
export type TelegramSignIn = ReturnType<typeof createTelegramSignIn>;

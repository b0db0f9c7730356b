import { LruCache } from '../translation/index.js';
import type { Clock } from '../clock.js';
import type { UsersRepo } from '../accounts/index.js';

/*
 * Who is a guest, for the credits rules: guests have a smaller daily allowance (CREDITS_GUEST_DAILY), are
 * told to sign in rather than to buy, and see no balance. A guest can become signed in (linking a sign-in
 * keeps their player) but an account never becomes a guest: so "signed in" is cached for good
 * and "guest" only briefly.
 */

const GUEST_ANSWER_MS = 60_000;

export function createGuestCheck(users: UsersRepo, clock: Clock): (userId: string) => Promise<boolean> {
  const cache = new LruCache<{ guest: boolean; until: number }>(10_000);
  return async (userId) => {
    const known = cache.get(userId);
    if (known && known.until > clock.now()) return known.guest;
    const user = await users.findById(userId);
    const guest = user?.provider !== 'ggl';
    if (user)
      cache.set(userId, { guest, until: guest ? clock.now() + GUEST_ANSWER_MS : Number.POSITIVE_INFINITY });
    return guest;
  };
}

/** The ledger's daily allowance, from the (cached) guest check. */
export function dailyAllowance(
  isGuest: (userId: string) => Promise<boolean>,
  limits: { accountDaily: number; guestDaily: number },
) {
  return async (userId: string): Promise<number> =>
    (await isGuest(userId)) ? limits.guestDaily : limits.accountDaily;
}

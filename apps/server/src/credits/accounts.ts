import { LruCache } from '../translation/lru.js';
import type { UsersRepo } from '../auth/users-repo.js';
import type { Reader } from './ledger.js';

/*
 * Who is a guest, for the credits rules: guests have a smaller daily allowance (CREDITS_GUEST_DAILY), are
 * told to sign in rather than to buy, and see no balance. A user's provider never changes, so it is cached.
 */

export function createGuestCheck(users: UsersRepo): (userId: string) => Promise<boolean> {
  const cache = new LruCache<boolean>(10_000);
  return async (userId) => {
    const known = cache.get(userId);
    if (known !== undefined) return known;
    const user = await users.findById(userId);
    const guest = user?.provider !== 'ggl';
    if (user) cache.set(userId, guest);
    return guest;
  };
}

/** The ledger's daily allowance: read inside the account's transaction, once a day per account. */
export function dailyAllowance(limits: { accountDaily: number; guestDaily: number }) {
  return async (userId: string, tx: Reader): Promise<number> => {
    const { rows } = await tx.query<{ provider: string }>('select provider from users where id = $1', [
      userId,
    ]);
    return rows[0]?.provider === 'ggl' ? limits.accountDaily : limits.guestDaily;
  };
}

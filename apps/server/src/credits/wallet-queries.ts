import type { ServerWallet } from '@xtalk/protocol';
import { walletOf } from '@xtalk/service-base';
import type { Db } from '../store/index.js';

/*
 * Read-only queries over the ledger's accounts for the payment service's server calls, kept
 * beside the ledger so that no other module reads its tables. Balances are as stored: a day's free
 * top-up lands on an account's next read or change, so an account idle since yesterday shows
 * yesterday's free part here.
 */

export function createWalletQueries(db: Db) {
  return {
    /** Accounts whose total (or one part) lies in [min, max], largest first. */
    async filterByBalance(query: {
      min?: number | undefined;
      max?: number | undefined;
      part: 'free' | 'premium' | 'total';
      limit: number;
      page: number;
    }): Promise<ServerWallet[]> {
      const measure = query.part === 'total' ? '(free + premium)' : query.part;
      const { rows } = await db.query<{ user_id: string; free: string; premium: string }>(
        `select user_id, free, premium from credit_accounts
         where ($1::bigint is null or ${measure} >= $1) and ($2::bigint is null or ${measure} <= $2)
         order by ${measure} desc, user_id limit $3 offset $4`,
        [query.min ?? null, query.max ?? null, query.limit, query.page * query.limit],
      );
      return rows.map(walletOf);
    },
  };
}

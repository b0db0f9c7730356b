import { LedgerRefusal, type AuthenticatorPort, type LedgerPort, type UsersPort } from '@xtalk/payments';
import type { Authenticator } from '../accounts/index.js';
import type { UsersRepo } from '../accounts/index.js';
import { LedgerError, type Ledger } from '../credits/index.js';
import { createWalletQueries } from '../credits/index.js';
import type { Db } from '../store/index.js';

/*
 * The payment service's ports, built from this server's modules: the credits ledger (its refusals turned
 * into the package's), the authenticator and the users repository.
 */

/** Runs a ledger call, answering its refusal as the package's, so the service maps it to its status. */
async function refusing<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof LedgerError) throw new LedgerRefusal(error.code, error.message);
    throw error;
  }
}

export function ledgerPort(ledger: Ledger, db: Db): LedgerPort {
  const queries = createWalletQueries(db);
  return {
    balance: (userId) => refusing(() => ledger.balance(userId)),
    credit: (entry) => refusing(() => ledger.credit(entry)),
    spend: (entry) => refusing(() => ledger.spend(entry)),
    adjust: (entry) => refusing(() => ledger.adjust(entry)),
    reverse: (entry) => refusing(() => ledger.reverse(entry)),
    list: (userId, query) => refusing(() => ledger.list(userId, query)),
    findByKey: (userId, key) => refusing(() => ledger.findByKey(userId, key)),
    filterByBalance: (query) => queries.filterByBalance(query),
  };
}

export function authenticatorPort(authenticator: Authenticator): AuthenticatorPort {
  return {
    async fromRequest(request) {
      const { user } = await authenticator.fromRequest(request);
      return { id: user.id, guest: user.provider === 'guest' };
    },
    async fromToken(token) {
      const { user } = await authenticator.fromToken(token);
      return { id: user.id, guest: user.provider === 'guest' };
    },
  };
}

export function usersPort(users: Pick<UsersRepo, 'findById'>): UsersPort {
  return { exists: async (userId) => (await users.findById(userId)) !== undefined };
}

import { createStoreVerifiers, StoreVerifyError } from '@xtalk/payments';
import type { StorePurchaseAccount } from '../accounts/index.js';
import type { Config } from '../config.js';
import { HttpError } from '../http-errors.js';

/**
 * The accounts module's port for store links, from the payment service's verifiers: the account id a
 * verified Google Play purchase names. Facebook's and Apple's purchases name no account id this server
 * can check, so only the server key links those.
 */
export function storePurchaseAccount(config: Config): StorePurchaseAccount {
  const { google } = createStoreVerifiers({
    googlePlay: config.GOOGLE_PLAY_SERVICE_ACCOUNT
      ? { serviceAccount: config.GOOGLE_PLAY_SERVICE_ACCOUNT, apiUrl: config.GOOGLE_PLAY_API_URL }
      : undefined,
  });
  return async (store, purchase) => {
    if (store !== 'google' || !google) return undefined;
    try {
      return (await google.verify(purchase)).accountId;
    } catch (error) {
      // the store's refusal, in the player API's shape
      if (error instanceof StoreVerifyError) throw new HttpError(error.statusCode, error.message, error.code);
      throw error;
    }
  };
}

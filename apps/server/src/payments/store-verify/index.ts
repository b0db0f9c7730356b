import type { Config } from '../../config.js';
import { createFacebookVerifier } from './facebook.js';
import { createGooglePlayVerifier, loadServiceAccount } from './google-play.js';
import type { StorePlatform, StoreVerifier } from './verifier.js';

export {
  StoreVerifyError,
  type StorePlatform,
  type StoreVerifier,
  type VerifiedPurchase,
} from './verifier.js';

/** The verifiers the configuration turns on; a platform left out answers "not configured". */
export function createStoreVerifiers(
  config: Pick<Config, 'GOOGLE_PLAY_SERVICE_ACCOUNT' | 'GOOGLE_PLAY_API_URL' | 'FACEBOOK_APP_SECRET'>,
): Partial<Record<StorePlatform, StoreVerifier>> {
  return {
    ...(config.GOOGLE_PLAY_SERVICE_ACCOUNT
      ? {
          google: createGooglePlayVerifier({
            serviceAccount: loadServiceAccount(config.GOOGLE_PLAY_SERVICE_ACCOUNT),
            apiUrl: config.GOOGLE_PLAY_API_URL,
          }),
        }
      : {}),
    ...(config.FACEBOOK_APP_SECRET
      ? { facebook: createFacebookVerifier({ appSecret: config.FACEBOOK_APP_SECRET }) }
      : {}),
  };
}

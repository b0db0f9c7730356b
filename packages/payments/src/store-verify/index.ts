import type { PaymentsOptions } from '../options.js';
import { createFacebookVerifier } from './facebook.js';
import { createGooglePlayVerifier, loadServiceAccount } from './google-play.js';
import type { StorePlatform, StoreVerifier } from './verifier.js';

export {
  StoreVerifyError,
  type StorePlatform,
  type StoreVerifier,
  type VerifiedPurchase,
} from './verifier.js';

/** The verifiers the options turn on; a platform left out answers "not configured". */
export function createStoreVerifiers(
  options: Pick<PaymentsOptions, 'googlePlay' | 'facebookAppSecret'>,
): Partial<Record<StorePlatform, StoreVerifier>> {
  const { googlePlay, facebookAppSecret } = options;
  return {
    ...(googlePlay
      ? {
          google: createGooglePlayVerifier({
            serviceAccount: loadServiceAccount(googlePlay.serviceAccount),
            apiUrl: googlePlay.apiUrl,
          }),
        }
      : {}),
    ...(facebookAppSecret ? { facebook: createFacebookVerifier({ appSecret: facebookAppSecret }) } : {}),
  };
}

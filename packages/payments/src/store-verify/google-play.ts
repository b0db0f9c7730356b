import { readFileSync } from 'node:fs';
import type { androidpublisher_v3 } from '@googleapis/androidpublisher';
import { lazyModule } from '../lazy-module.js';
import { StoreVerifyError, type StoreVerifier, type VerifiedPurchase } from './verifier.js';

/*
 * Google Play purchases, verified for real with Google's own client (purchases.products.get) and a
 * service-account token. Both ends are configurable so that tests run the same code against an HTTP
 * server of their own: the API's base URL (GOOGLE_PLAY_API_URL) and the OAuth token endpoint (the
 * service account's `token_uri`, which every real key file carries as Google's).
 */

const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const SCOPE = 'https://www.googleapis.com/auth/androidpublisher';
const TIMEOUT_MS = 10_000;

/** purchases.products.get's purchaseState. */
const PURCHASED = 0;
const CANCELED = 1;
const PENDING = 2;

interface ServiceAccount {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
}

/** GOOGLE_PLAY_SERVICE_ACCOUNT is the key file's JSON itself, or a path to it. */
export function loadServiceAccount(value: string): ServiceAccount {
  let text = value;
  if (!value.trimStart().startsWith('{')) {
    try {
      text = readFileSync(value, 'utf8');
    } catch (error) {
      throw new Error(`GOOGLE_PLAY_SERVICE_ACCOUNT: cannot read ${value}: ${(error as Error).message}`);
    }
  }
  let parsed: Partial<ServiceAccount>;
  try {
    parsed = JSON.parse(text) as Partial<ServiceAccount>;
  } catch {
    throw new Error('GOOGLE_PLAY_SERVICE_ACCOUNT is not a service-account JSON (or a path to one).');
  }
  if (typeof parsed.client_email !== 'string' || typeof parsed.private_key !== 'string') {
    throw new Error('GOOGLE_PLAY_SERVICE_ACCOUNT needs client_email and private_key.');
  }
  return parsed as ServiceAccount;
}

export function createGooglePlayVerifier(options: {
  serviceAccount: ServiceAccount;
  apiUrl: string;
}): StoreVerifier {
  const { serviceAccount } = options;
  // Google's client is large in memory and loaded only when Google Play is configured, in the background
  // (decision 0116); a failed load is reported by the first verification, which tries again
  const client = lazyModule(async () => {
    const { androidpublisher, auth: googleAuth } = await import('@googleapis/androidpublisher');
    // the JWT class of the client's own google-auth-library, so its type always matches the client's
    const auth = new googleAuth.JWT({
      email: serviceAccount.client_email,
      key: serviceAccount.private_key,
      keyId: serviceAccount.private_key_id,
      scopes: [SCOPE],
    });
    // The library posts the token exchange to Google's fixed URL; honour the key file's token_uri instead.
    const tokenUri = serviceAccount.token_uri;
    if (tokenUri && tokenUri !== GOOGLE_TOKEN_URL) {
      auth.transporter.interceptors.request.add({
        resolved: async (config) => {
          // gaxios has already turned the url into a URL object by now
          if (String(config.url) === GOOGLE_TOKEN_URL) config.url = new URL(tokenUri);
          return config;
        },
      });
    }
    return androidpublisher({
      version: 'v3',
      auth,
      rootUrl: options.apiUrl,
      timeout: TIMEOUT_MS,
      // one retry of a dropped connection or a 5xx, then the caller hears "try again"
      retryConfig: { retry: 1 },
    });
  });

  client().catch(() => undefined);

  return {
    platform: 'google',
    async verify({ appId, productId, purchaseToken }): Promise<VerifiedPurchase> {
      if (!purchaseToken) throw new StoreVerifyError(400, 'invalid_request', 'purchaseToken is required.');
      const purchase = await getPurchase(await client(), {
        packageName: appId,
        productId,
        token: purchaseToken,
      });
      if (purchase.purchaseState === PENDING) {
        throw new StoreVerifyError(
          409,
          'purchase_pending',
          'The purchase is pending at Google Play; verify it again once it is paid.',
        );
      }
      if (purchase.purchaseState === CANCELED) {
        throw new StoreVerifyError(400, 'purchase_canceled', 'The purchase was canceled at Google Play.');
      }
      if (purchase.purchaseState !== PURCHASED) {
        throw new StoreVerifyError(
          502,
          'store_error',
          `Google Play answered an unknown purchase state: ${String(purchase.purchaseState)}.`,
        );
      }
      if (purchase.productId && purchase.productId !== productId) {
        throw new StoreVerifyError(
          400,
          'product_mismatch',
          `The purchase token is for ${purchase.productId}, not ${productId}.`,
        );
      }
      return {
        key: purchaseToken,
        productId,
        quantity: Math.max(1, purchase.quantity ?? 1),
        orderId: purchase.orderId ?? null,
        accountId: purchase.obfuscatedExternalAccountId ?? null,
      };
    },
  };
}

async function getPurchase(
  play: androidpublisher_v3.Androidpublisher,
  params: { packageName: string; productId: string; token: string },
): Promise<androidpublisher_v3.Schema$ProductPurchase> {
  try {
    const response = await play.purchases.products.get(params);
    return response.data;
  } catch (error) {
    const failed = error as Error & { response?: { status?: number }; config?: { url?: unknown } };
    const status = failed.response?.status;
    const reason = failed.message;
    // the token exchange failed: the service account's problem, not the purchase's
    const atPlayApi = String(failed.config?.url ?? '').includes('/androidpublisher/');
    if (status !== undefined && !atPlayApi) {
      throw new StoreVerifyError(
        502,
        'store_unauthorized',
        `Google refused the service account's token request (${reason}); check GOOGLE_PLAY_SERVICE_ACCOUNT.`,
      );
    }
    // Google answers an unknown or foreign token with 400 "Invalid Value", a gone one with 410
    if (status === 400 || status === 404 || status === 410) {
      throw new StoreVerifyError(
        400,
        'purchase_token_invalid',
        `Google Play does not know this purchase (${reason}).`,
      );
    }
    if (status === 401 || status === 403) {
      throw new StoreVerifyError(
        502,
        'store_unauthorized',
        `Google Play refused the service account (${reason}); check GOOGLE_PLAY_SERVICE_ACCOUNT and its access to ${params.packageName}.`,
      );
    }
    throw new StoreVerifyError(
      503,
      'store_unreachable',
      `Google Play could not be reached (${reason}); try again.`,
    );
  }
}

import { afterAll, beforeAll } from 'vitest';
import type { FakeGooglePlay } from './google-play-server.js';
import { startFakeGooglePlay } from './google-play-server.js';
import { startPaymentServer, type TestService } from './payment-server.js';

/*
 * The service with both stores on, for the app-store purchase tests: Google's shapes served by a
 * stand-in started here, and Facebook signed requests checked with FB_SECRET.
 */

export const APP = 'com.xtalk.app';
export const FB_SECRET = 'facebook-app-secret-for-tests';

export interface PurchaseService {
  play: FakeGooglePlay;
  server: TestService;
  /** A purchase Google knows, in the given state; returns its token. */
  googlePurchase(productId: string, purchaseState?: 0 | 1 | 2, extra?: { gctId?: string }): string;
  close(): Promise<void>;
}

let tokens = 0;

export async function startPurchaseService(): Promise<PurchaseService> {
  const play = await startFakeGooglePlay();
  const server = await startPaymentServer({
    GOOGLE_PLAY_SERVICE_ACCOUNT: JSON.stringify(play.serviceAccount),
    GOOGLE_PLAY_API_URL: play.apiUrl,
    FACEBOOK_APP_SECRET: FB_SECRET,
  });
  return {
    play,
    server,
    googlePurchase(productId, purchaseState = 0, extra = {}) {
      tokens += 1;
      const token = `play-token-${tokens}-${'x'.repeat(40)}`;
      play.purchases.set(token, {
        packageName: APP,
        productId,
        purchaseState,
        ...(extra.gctId ? { obfuscatedExternalAccountId: extra.gctId } : {}),
      });
      return token;
    },
    async close() {
      await server.close();
      await play.close();
    },
  };
}

/**
 * The purchase service for the tests of one `describe`: started before them, closed after them. Its
 * members are read inside the tests, once the service runs.
 */
export function usePurchaseService(): Omit<PurchaseService, 'close'> {
  let service: PurchaseService | undefined;
  beforeAll(async () => {
    service = await startPurchaseService();
  });
  afterAll(() => service?.close());
  const running = (): PurchaseService => {
    if (!service) throw new Error('the purchase service runs only inside its tests');
    return service;
  };
  return {
    get play() {
      return running().play;
    },
    get server() {
      return running().server;
    },
    googlePurchase: (...args) => running().googlePurchase(...args),
  };
}

/** A Google verify body as the app sends it. */
export const google = (gctId: string | undefined, purchaseToken: string, productId = 'credits_1000') => ({
  ...(gctId ? { gctId } : {}),
  appId: APP,
  platform: 'google',
  productId,
  purchaseToken,
  deviceId: 'pixel-8',
  platformVersion: '15',
  isSubscription: false,
});

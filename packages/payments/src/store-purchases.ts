import {
  CREDIT_PACKAGES,
  type CreditPackage,
  type PurchaseVerifyBody,
  type PurchaseVerifyResponse,
  type StorePlatform,
} from '@xtalk/protocol';
import type { UsersPort } from './ports.js';
import type { LedgerPort } from './ports.js';
import { PaymentError } from './errors.js';
import { revokePurchase, settlePurchase } from './store-purchase-credits.js';
import type { StoredPurchase, StorePurchasesRepo } from './store-purchases-repo.js';
import type { StoreVerifier, VerifiedPurchase } from './store-verify/index.js';

/*
 * What the purchase routes do with an app-store purchase: verify it at its store, claim it for one
 * player, credit its package through the ledger exactly once, and later record consumption or revoke
 * it. Replays of any step answer what the first one did and move nothing.
 */

/** Google Play lets a buyer take several of one product at once; more than this is not a real purchase. */
const MAX_QUANTITY = 100;

const PLATFORM_SETTING: Record<StorePlatform, string> = {
  google: 'GOOGLE_PLAY_SERVICE_ACCOUNT',
  facebook: 'FACEBOOK_APP_SECRET',
};

/** Asks the platform's store whether the purchase is real; 503 when that platform is not configured. */
function verifyAtStore(
  verifiers: Partial<Record<StorePlatform, StoreVerifier>>,
  platform: StorePlatform,
  body: PurchaseVerifyBody,
): Promise<VerifiedPurchase> {
  const verifier = verifiers[platform];
  if (!verifier) {
    throw new PaymentError(
      503,
      'platform_not_configured',
      `${platform} purchases are not configured on this server (${PLATFORM_SETTING[platform]} is not set).`,
    );
  }
  return verifier.verify({
    appId: body.appId as string,
    productId: body.productId as string,
    purchaseToken: body.purchaseToken,
    paymentId: body.paymentId,
    signedRequest: body.signedRequest,
  });
}

/** The package a verified purchase buys, refusing one made for another account or an absurd quantity. */
function packageOf(verified: VerifiedPurchase, gctId: string | undefined): CreditPackage {
  if (gctId && verified.accountId && verified.accountId !== gctId) {
    throw new PaymentError(403, 'account_mismatch', 'The purchase was made for another account than gctId.');
  }
  if (verified.quantity > MAX_QUANTITY) {
    throw new PaymentError(
      400,
      'invalid_quantity',
      `A purchase of ${verified.quantity} packages is not credited.`,
    );
  }
  const pack = CREDIT_PACKAGES.find((candidate) => candidate.productId === verified.productId);
  if (!pack) throw new PaymentError(400, 'invalid_request', `Unknown product ${verified.productId}.`);
  return pack;
}

export function createStorePurchases(deps: {
  purchases: StorePurchasesRepo;
  ledger: LedgerPort;
  users: UsersPort;
  verifiers: Partial<Record<StorePlatform, StoreVerifier>>;
}) {
  const { purchases } = deps;

  async function requirePlayer(gctId: string): Promise<void> {
    if (!(await deps.users.exists(gctId))) throw new PaymentError(404, 'not_found', `No player ${gctId}.`);
  }

  const settle = (purchase: StoredPurchase, gctId: string) => settlePurchase(deps, purchase, gctId);

  /** The stored purchase a consume or admin call names, or 404. */
  async function named(body: {
    platform?: string | undefined;
    purchaseToken?: string | undefined;
    gctId?: string | undefined;
    appId?: string | undefined;
  }): Promise<StoredPurchase> {
    const purchase = await purchases.find(body.platform as StorePlatform, body.purchaseToken ?? '');
    if (!purchase || purchase.userId !== body.gctId || purchase.appId !== body.appId) {
      throw new PaymentError(
        404,
        'not_found',
        'No purchase with this purchaseToken for this gctId and appId.',
      );
    }
    return purchase;
  }

  return {
    named,

    /** Verifies at the store and credits `gctId`; without gctId (anonymous form) only verifies. */
    async verify(body: PurchaseVerifyBody): Promise<PurchaseVerifyResponse> {
      const platform = body.platform as StorePlatform;
      const key = (platform === 'google' ? body.purchaseToken : body.paymentId) as string;
      const gctId = body.gctId?.trim() || undefined;
      const verify = () => verifyAtStore(deps.verifiers, platform, body);
      if (gctId) {
        const known = await purchases.find(platform, key);
        if (known) {
          if (known.appId !== body.appId || known.productId !== body.productId) {
            throw new PaymentError(
              400,
              'product_mismatch',
              'This purchase is known for another appId or productId.',
            );
          }
          // A Google token is itself the secret; a Facebook payment id is not, so its signature is checked
          // again (locally, no call to Facebook) before the replay is answered.
          if (platform === 'facebook') await verify();
          return settle(known, gctId);
        }
        await requirePlayer(gctId);
      }
      const verified = await verify();
      const pack = packageOf(verified, gctId);
      if (!gctId) return { verified: true, credited: 0, balance: null };
      const claimed = await purchases.claim({
        platform,
        key: verified.key,
        appId: body.appId as string,
        userId: gctId,
        productId: verified.productId,
        orderId: verified.orderId,
        quantity: verified.quantity,
        credits: pack.amount * verified.quantity,
      });
      return settle(claimed, gctId);
    },

    /** The app consumed the purchase; a replay (or a consume after one) changes nothing. */
    async consume(purchase: StoredPurchase): Promise<StoredPurchase> {
      if (purchase.status === 'revoked') {
        throw new PaymentError(409, 'purchase_revoked', 'This purchase was revoked by an administrator.');
      }
      if (purchase.status === 'crediting') await settle(purchase, purchase.userId);
      await purchases.transition(purchase.id, ['crediting', 'credited', 'consume_failed'], 'consumed');
      return (await purchases.find(purchase.platform, purchase.key)) as StoredPurchase;
    },

    /** The app's consume failed; kept for support. A consumed purchase stays consumed. */
    async consumeError(purchase: StoredPurchase, error: string): Promise<StoredPurchase> {
      if (purchase.status === 'revoked') {
        throw new PaymentError(409, 'purchase_revoked', 'This purchase was revoked by an administrator.');
      }
      const moved = await purchases.transition(purchase.id, ['crediting', 'credited'], 'consume_failed', {
        consumeError: error,
      });
      if (!moved) await purchases.noteConsumeError(purchase.id, error);
      return (await purchases.find(purchase.platform, purchase.key)) as StoredPurchase;
    },

    /** Revokes a purchase (admin): a reversal row takes its credits back; refused when they are spent. */
    revoke: (purchase: StoredPurchase): Promise<StoredPurchase> => revokePurchase(deps, purchase),
  };
}
export type StorePurchases = ReturnType<typeof createStorePurchases>;

/*
 * What an app-store verifier tells the purchase routes. Each platform answers in its own shapes; the
 * routes see only this: a purchase that is paid (with how many of the product), or a reason it is not.
 */

export type StorePlatform = 'google' | 'facebook';

export interface VerifiedPurchase {
  /** The purchase's natural key: Google's purchase token, Facebook's payment id. */
  key: string;
  productId: string;
  /** How many of the product were bought (Google Play's multi-quantity purchases); at least 1. */
  quantity: number;
  /** The store's own order id, kept for support. */
  orderId: string | null;
  /** The store's account id the app attached to the purchase, when it did (checked against gctId). */
  accountId: string | null;
}

/**
 * Why a purchase is not credited. `status` is the HTTP status the routes answer with; `code` a stable
 * machine word clients branch on.
 */
export class StoreVerifyError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface StoreVerifier {
  readonly platform: StorePlatform;
  verify(input: {
    appId: string;
    productId: string;
    purchaseToken?: string | undefined;
    paymentId?: string | undefined;
    signedRequest?: string | undefined;
  }): Promise<VerifiedPurchase>;
}

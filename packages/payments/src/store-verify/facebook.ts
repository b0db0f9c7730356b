import { createHmac, timingSafeEqual } from 'node:crypto';
import { StoreVerifyError, type StoreVerifier, type VerifiedPurchase } from './verifier.js';

/*
 * Facebook purchases arrive with a `signed_request`: base64url(HMAC-SHA256 of the second part, keyed
 * with the app secret) '.' base64url(JSON). Facebook signs it, so checking the signature with
 * FACEBOOK_APP_SECRET is the whole verification; no call to Facebook is needed. The payload names the
 * payment (`payment_id`), which must be the one the body claims, and, for in-app products, the product.
 */

const MAX_SIGNED_REQUEST_CHARS = 16_000;

interface SignedPurchase {
  algorithm?: unknown;
  payment_id?: unknown;
  product_id?: unknown;
  status?: unknown;
  quantity?: unknown;
  purchase_token?: unknown;
}

const invalid = (message: string) => new StoreVerifyError(400, 'signed_request_invalid', message);

/** The payload of a signed request whose signature `appSecret` made; throws otherwise. */
export function parseSignedRequest(signedRequest: string, appSecret: string): SignedPurchase {
  if (signedRequest.length > MAX_SIGNED_REQUEST_CHARS) throw invalid('signedRequest is too long.');
  const parts = signedRequest.split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1]) {
    throw invalid("signedRequest must be '<signature>.<payload>' in base64url.");
  }
  const [signaturePart, payloadPart] = parts as [string, string];
  const signature = Buffer.from(signaturePart, 'base64url');
  const expected = createHmac('sha256', appSecret).update(payloadPart).digest();
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) {
    throw invalid('The signature of signedRequest is not valid.');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(payloadPart, 'base64url').toString('utf8'));
  } catch {
    throw invalid('The payload of signedRequest is not JSON.');
  }
  if (typeof payload !== 'object' || payload === null)
    throw invalid('The payload of signedRequest is not an object.');
  const purchase = payload as SignedPurchase;
  if (typeof purchase.algorithm !== 'string' || purchase.algorithm.toUpperCase() !== 'HMAC-SHA256') {
    throw invalid("signedRequest's algorithm must be HMAC-SHA256.");
  }
  return purchase;
}

export function createFacebookVerifier(options: { appSecret: string }): StoreVerifier {
  return {
    platform: 'facebook',
    async verify({ productId, paymentId, signedRequest }): Promise<VerifiedPurchase> {
      if (!paymentId || !signedRequest) {
        throw new StoreVerifyError(400, 'invalid_request', 'paymentId and signedRequest are required.');
      }
      const purchase = parseSignedRequest(signedRequest, options.appSecret);
      if (String(purchase.payment_id ?? '') !== paymentId) {
        throw invalid('The signed request is for another payment than paymentId.');
      }
      if (purchase.product_id !== undefined && String(purchase.product_id) !== productId) {
        throw new StoreVerifyError(
          400,
          'product_mismatch',
          `The signed request is for ${String(purchase.product_id)}, not ${productId}.`,
        );
      }
      // Payments Lite callbacks carry a status; in-app purchases (which carry none) are complete when signed
      if (purchase.status !== undefined && purchase.status !== 'completed') {
        throw new StoreVerifyError(
          409,
          'purchase_not_completed',
          `The payment is ${String(purchase.status)}, not completed.`,
        );
      }
      const quantity = Number(purchase.quantity ?? 1);
      return {
        key: paymentId,
        productId,
        quantity: Number.isInteger(quantity) && quantity > 0 ? quantity : 1,
        orderId: paymentId,
        accountId: null,
      };
    },
  };
}

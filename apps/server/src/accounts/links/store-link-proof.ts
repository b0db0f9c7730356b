import type { FastifyRequest } from 'fastify';
import type { LinkBody } from '@xtalk/protocol';
import { HttpError } from '../../http-errors.js';
import { sameText } from '../sessions/same-text.js';

/*
 * A store link binds an app-store account id to a player, so that purchases of that account are theirs.
 * Whoever links an id first would hold it, and its real owner would be refused: so the id must be proven,
 * by the store (a purchase it verifies whose account id is that id) or by a server that knows its players
 * (the payment service's X-Server-Key). A player's word alone proves nothing.
 */

export type StoreLinkBody = Extract<LinkBody, { provider: 'store' }>;

/**
 * The account id a store vouches for in a purchase (Google Play's obfuscatedExternalAccountId), null when
 * the purchase names none, undefined when this server cannot ask that store. The composition builds it
 * from the payment service's verifiers; it throws an HttpError when the store refuses the purchase.
 */
export type StorePurchaseAccount = (
  store: StoreLinkBody['store'],
  purchase: NonNullable<StoreLinkBody['purchase']>,
) => Promise<string | null | undefined>;

export interface StoreLinkProofDeps {
  /** PAYMENT_SERVER_KEY: a call that carries it may link any id. */
  serverKey: string | undefined;
  purchaseAccount: StorePurchaseAccount | undefined;
}

const NO_PROOF =
  'Linking a store account needs proof from the store (a verified purchase of that account) or the server key.';

/** Resolves when the request proves the body's account id; a 403 saying what is missing otherwise. */
export async function proveStoreAccount(
  deps: StoreLinkProofDeps,
  request: FastifyRequest,
  body: StoreLinkBody,
): Promise<void> {
  const key = request.headers['x-server-key'];
  if (deps.serverKey && typeof key === 'string' && sameText(key, deps.serverKey)) return;
  if (!body.purchase || !deps.purchaseAccount) throw new HttpError(403, NO_PROOF);
  const account = await deps.purchaseAccount(body.store, body.purchase);
  if (account === undefined) throw new HttpError(403, NO_PROOF);
  if (account !== body.accountId) {
    throw new HttpError(403, 'The purchase was not made by this store account.');
  }
}

import type { Balance, PurchaseVerifyResponse } from '@xtalk/protocol';
import type { LedgerPort } from './ports.js';
import { PaymentError } from './errors.js';
import type { StoredPurchase, StorePurchasesRepo } from './store-purchases-repo.js';

/*
 * How an app-store purchase moves credits (store-purchases.ts): credited once through the ledger, keyed by
 * the purchase, and taken back by a reversal row when an administrator revokes it.
 */

export interface PurchaseCreditsDeps {
  purchases: StorePurchasesRepo;
  ledger: LedgerPort;
}

const ledgerKey = (purchase: Pick<StoredPurchase, 'platform' | 'key'>) =>
  `store:${purchase.platform}:${purchase.key}`;

/** Credits a claimed purchase (once: the ledger key is the purchase's) and answers the verification. */
export async function settlePurchase(
  { purchases, ledger }: PurchaseCreditsDeps,
  purchase: StoredPurchase,
  gctId: string,
): Promise<PurchaseVerifyResponse> {
  if (purchase.userId !== gctId) {
    throw new PaymentError(409, 'purchase_claimed', 'This purchase was already credited to another player.');
  }
  if (purchase.status === 'revoked') {
    throw new PaymentError(409, 'purchase_revoked', 'This purchase was revoked by an administrator.');
  }
  let balance: Balance;
  if (purchase.status === 'crediting') {
    const result = await ledger.credit({
      userId: gctId,
      key: ledgerKey(purchase),
      cause: `store:${purchase.platform}`,
      reference: purchase.id,
      amount: purchase.credits,
      part: 'premium',
      kind: 'purchase',
    });
    await purchases.transition(purchase.id, ['crediting'], 'credited', { ledgerTxnId: result.txn.id });
    balance = result.balance;
  } else {
    balance = await ledger.balance(gctId);
  }
  return { verified: true, credited: purchase.credits, balance };
}

/**
 * Revokes a purchase (admin): its credits go back out through a reversal row, and it never credits
 * again. Refused, changing nothing, when the credits are already spent.
 */
export async function revokePurchase(
  { purchases, ledger }: PurchaseCreditsDeps,
  purchase: StoredPurchase,
): Promise<StoredPurchase> {
  if (purchase.status !== 'revoked') {
    const credit = await ledger.findByKey(purchase.userId, ledgerKey(purchase));
    if (credit && credit.status !== 'reversed') {
      await ledger.reverse({
        userId: purchase.userId,
        key: `revoke:${ledgerKey(purchase)}`,
        cause: 'store_purchase_revoked',
        reference: purchase.id,
        txnId: credit.id,
        kind: 'reversal',
      });
    }
    await purchases.transition(
      purchase.id,
      ['crediting', 'credited', 'consumed', 'consume_failed'],
      'revoked',
    );
  }
  return (await purchases.find(purchase.platform, purchase.key)) as StoredPurchase;
}

import { describe, expect, it } from 'vitest';
import {
  CREDIT_PACKAGES,
  creditCost,
  purchaseBodySchema,
  serverFrameSchema,
  txnListQuerySchema,
  walletBalanceQuerySchema,
} from './index.js';

describe('wallet contract', () => {
  it('sells the three packages on offer', () => {
    expect(CREDIT_PACKAGES.map((p) => [p.productId, p.amount, p.priceJpy])).toEqual([
      ['credits_1000', 1000, 149],
      ['credits_5000', 5000, 499],
      ['credits_20000', 20_000, 1499],
    ]);
  });

  it('takes a package amount and refuses any other with a message', () => {
    expect(purchaseBodySchema.parse({ currency: 't_free', amount: 5000 }).amount).toBe(5000);
    const bad = purchaseBodySchema.safeParse({ currency: 't_free', amount: 999 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('amount must be one of 1000, 5000, 20000.');
    expect(purchaseBodySchema.safeParse({ currency: 'usd', amount: 1000 }).success).toBe(false);
  });

  it('defaults the txn list to limit 100, page 0 and the balance to t_free', () => {
    expect(txnListQuerySchema.parse({})).toEqual({ limit: 100, page: 0 });
    expect(txnListQuerySchema.parse({ limit: '5', page: '2', status: 'reversed' })).toEqual({
      limit: 5,
      page: 2,
      status: 'reversed',
    });
    expect(walletBalanceQuerySchema.parse({})).toEqual({ currency: 't_free' });
  });

  it('prices per started block, at least one block', () => {
    expect(creditCost('translation', 0)).toBe(1);
    expect(creditCost('translation', 20)).toBe(1);
    expect(creditCost('translation', 50)).toBe(3);
    expect(creditCost('transcription', 7)).toBe(4);
  });

  it('parses the BALANCE frame', () => {
    const frame = { type: 'system', message: 'BALANCE', timestamp: 1, balance: { free: 10, premium: 2 } };
    expect(serverFrameSchema.parse(frame)).toEqual(frame);
  });
});

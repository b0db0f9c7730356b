import { describe, expect, it } from 'vitest';
import { checkoutAddress } from './checkout-window';

describe('the checkout address', () => {
  const origin = 'https://xtalk.example';

  it("tells the server's own TEST MODE page the interface language", () => {
    expect(checkoutAddress(`${origin}/api/payments/test-checkout/ord_1`, 'ja', origin)).toBe(
      `${origin}/api/payments/test-checkout/ord_1?lang=ja`,
    );
    expect(checkoutAddress(`${origin}/api/payments/test-checkout/ord_1?lang=en`, 'ja', origin)).toBe(
      `${origin}/api/payments/test-checkout/ord_1?lang=ja`,
    );
  });

  it("leaves a provider's page (another origin) exactly as given", () => {
    const stripe = 'https://checkout.stripe.com/c/pay/cs_test_a1#fidkdWxOYHwnPyd1';
    expect(checkoutAddress(stripe, 'ja', origin)).toBe(stripe);
  });
});

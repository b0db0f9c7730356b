import { useState } from 'react';
import { useI18n } from '#web/lib/i18n';
import { PaymentStatusError, startPurchase } from '../api/wallet-api';
import { checkoutAddress, openPendingWindow } from '../utils/checkout-window';
import { logPaymentFailure } from '../utils/payment-log';

/**
 * Buying a package: the checkout window opens at the press (a popup opened later is blocked), then goes
 * to the order's checkout or closes if the order fails. One purchase at a time; `purchasing` is its
 * credits. `unavailable`: the server said it sells no credits, which the person is told plainly.
 */
export function usePurchase(token: string, openWindow?: typeof window.open) {
  const { language } = useI18n();
  const [purchasing, setPurchasing] = useState<number | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  const buy = async (credits: number) => {
    if (purchasing !== null) return;
    setPurchasing(credits);
    const checkout = openPendingWindow(openWindow);
    try {
      const order = await startPurchase(token, credits);
      checkout.go(checkoutAddress(order.checkoutURL, language));
    } catch (error) {
      checkout.cancel();
      if (error instanceof PaymentStatusError && error.code === 'purchases_unavailable') setUnavailable(true);
      logPaymentFailure('purchase failed', error);
    } finally {
      setPurchasing(null);
    }
  };
  return { purchasing, buy, unavailable };
}

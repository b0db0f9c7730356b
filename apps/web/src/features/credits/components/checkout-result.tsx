import { CircleCheck, CircleX, Clock } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { useI18n } from '#web/lib/i18n';
import { localeFor } from '#web/lib/time';
import type { Balance, OrderStatus } from '@xtalk/protocol';
import { fetchBalance, fetchPurchaseStatus } from '../api/wallet-api';
import { balanceStore } from '../hooks/use-balance';
import { totalCredits } from '../utils/balance';
import { logPaymentFailure } from '../utils/payment-log';

/** How often, and how long, the landing page asks whether the order is paid (the webhook may lag). */
export const STATUS_POLL_MS = 1000;
export const STATUS_POLL_LIMIT = 30;

export type CheckoutOutcome =
  | { state: 'confirming' }
  | { state: 'paid'; balance?: Balance }
  | { state: 'pending' }
  | { state: 'canceled' };

export interface CheckoutResultOptions {
  /** `status` of the landing address: what the payment page said happened. */
  status: string | null;
  orderId: string | null;
  token: string | undefined;
  pollMs?: number;
  pollLimit?: number;
}

/**
 * The truth about the order behind /checkout. The address only says what the payment
 * page claimed, and anyone can type `?status=success`; so when the order and the session are known the
 * server's order status decides, asked until it is no longer pending (a Stripe webhook may arrive after
 * the browser). Once paid, the new balance is fetched and written to `bal`: the room's tab, which opened
 * this window, updates its header from that without a reload.
 */
export function useCheckoutOutcome({
  status,
  orderId,
  token,
  pollMs = STATUS_POLL_MS,
  pollLimit = STATUS_POLL_LIMIT,
}: CheckoutResultOptions): CheckoutOutcome {
  const claimedSuccess = status === 'success';
  const verifiable = Boolean(orderId && token);
  const [outcome, setOutcome] = useState<CheckoutOutcome>(() =>
    verifiable ? { state: 'confirming' } : claimedSuccess ? { state: 'paid' } : { state: 'canceled' },
  );

  useEffect(() => {
    if (!orderId || !token) return;
    let active = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async (attempt: number) => {
      let answer: OrderStatus | undefined;
      try {
        answer = await fetchPurchaseStatus(token, orderId);
      } catch (error) {
        logPaymentFailure('order status failed', error);
      }
      if (!active) return;
      if (answer === 'paid') {
        setOutcome({ state: 'paid' });
        try {
          const balance = await fetchBalance(token);
          balanceStore.set(balance);
          if (active) setOutcome({ state: 'paid', balance });
        } catch (error) {
          logPaymentFailure('balance fetch failed', error);
        }
      } else if (answer === 'canceled') {
        setOutcome({ state: 'canceled' });
      } else if (attempt + 1 >= pollLimit) {
        setOutcome(answer === undefined && !claimedSuccess ? { state: 'canceled' } : { state: 'pending' });
      } else {
        timer = setTimeout(() => void ask(attempt + 1), pollMs);
      }
    };
    void ask(0);
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [orderId, token, claimedSuccess, pollMs, pollLimit]);

  return outcome;
}

/** The body of the /checkout card: what happened to the payment, and that this window can close. */
export function CheckoutResult(options: CheckoutResultOptions) {
  const { t, language } = useI18n();
  const outcome = useCheckoutOutcome(options);
  const numbers = new Intl.NumberFormat(localeFor(language));

  let title: string;
  let body: string;
  if (outcome.state === 'confirming') {
    title = t('checkout.confirming');
    body = t('checkout.successBody');
  } else if (outcome.state === 'pending') {
    title = t('checkout.confirming');
    body = t('checkout.pendingBody');
  } else if (outcome.state === 'paid') {
    title = t('checkout.success');
    body = outcome.balance
      ? t('checkout.newBalance', { count: numbers.format(totalCredits(outcome.balance)) })
      : t('checkout.successBody');
  } else {
    title = t('checkout.canceled');
    body = t('checkout.canceledBody');
  }

  return (
    <div data-testid="checkout-result" data-state={outcome.state}>
      {outcome.state === 'paid' ? (
        <CircleCheck className="mx-auto size-10 text-emerald-500" aria-hidden="true" />
      ) : outcome.state === 'canceled' ? (
        <CircleX className="mx-auto size-10 text-slate-400" aria-hidden="true" />
      ) : outcome.state === 'pending' ? (
        <Clock className="mx-auto size-10 text-amber-500" aria-hidden="true" />
      ) : (
        <Spinner className="mx-auto size-10 text-indigo-500" />
      )}
      <h1 className="mt-3 text-xl font-semibold">{title}</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300" aria-live="polite">
        {body}
      </p>
      <p className="mt-4 text-sm text-slate-500 dark:text-slate-400">{t('checkout.close')}</p>
      <Button variant="secondary" className="mt-4" onClick={() => window.close()}>
        {t('checkout.closeWindow')}
      </Button>
    </div>
  );
}

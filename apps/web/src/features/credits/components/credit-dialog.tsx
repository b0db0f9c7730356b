import { CREDIT_PACKAGES } from '@xtalk/protocol';
import { Coins, RotateCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { useI18n } from '../../../lib/i18n';
import { localeFor } from '../../../lib/time';
import { fetchBalance, startPurchase } from '../api/wallet-api';
import { balanceStore, useBalance } from '../hooks/use-balance';
import { balanceTone, replenishIn, showsReplenishHint, totalCredits } from '../utils/balance';
import { checkoutAddress, openPendingWindow } from '../utils/checkout-window';
import { toneText } from './tone';
import { logPaymentFailure } from '../utils/payment-log';

export interface CreditDialogProps {
  open: boolean;
  onClose: () => void;
  token: string;
  /** The clock of the 'Replenishes in …' hint (tests move it across the hours). */
  now?: () => number;
  /** window.open, injectable for tests. */
  openWindow?: typeof window.open;
}

/**
 * Credit Balance (spec sections 2, 4 and 9): 'You have N credits.', a refresh button that spins while
 * loading, the 'Replenishes in …' hint below 1,000, 'Buy more credits:' with the three packages, Close.
 * The body mounts on every open, so the balance is fetched on each open, which includes the next open
 * after a purchase attempt. Failures are logged only (spec section 8).
 */
export function CreditDialog(props: CreditDialogProps) {
  const { t } = useI18n();
  if (!props.open) return null;
  return (
    <Dialog
      open
      onClose={props.onClose}
      title={t('credits.title')}
      closeLabel={t('common.close')}
      testId="credit-dialog"
      footer={
        <Button variant="secondary" onClick={props.onClose} data-testid="credit-close">
          {t('common.close')}
        </Button>
      }
    >
      <CreditDialogBody {...props} />
    </Dialog>
  );
}

function CreditDialogBody({ token, now = Date.now, openWindow }: CreditDialogProps) {
  const { t, language } = useI18n();
  const balance = useBalance();
  const [loading, setLoading] = useState(true);
  const [purchasing, setPurchasing] = useState<number | null>(null);
  const numbers = new Intl.NumberFormat(localeFor(language));

  // One fetch per open, and one more per press of refresh (spinning until it answers).
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let active = true;
    // The new balance and the end of the spin land in the same tick, so React renders them together:
    // never a frame with the fresh number and a spinning button.
    const done = () => {
      if (active) setLoading(false);
    };
    fetchBalance(token).then(
      (fresh) => {
        balanceStore.set(fresh);
        done();
      },
      (error: unknown) => {
        logPaymentFailure('balance fetch failed', error);
        done();
      },
    );
    return () => {
      active = false;
    };
  }, [token, attempt]);
  const refresh = () => {
    setLoading(true);
    setAttempt((n) => n + 1);
  };

  const buy = async (credits: number) => {
    if (purchasing !== null) return;
    setPurchasing(credits);
    const checkout = openPendingWindow(openWindow);
    try {
      const order = await startPurchase(token, credits);
      checkout.go(checkoutAddress(order.checkoutURL, language));
    } catch (error) {
      checkout.cancel();
      logPaymentFailure('purchase failed', error);
    } finally {
      setPurchasing(null);
    }
  };

  // Spec section 3: a balance is 0 and 0 until the server tells otherwise.
  const credits = balance ? totalCredits(balance) : 0;
  const known = balance !== undefined || !loading;
  const [before, after] = t('credits.youHave', { count: '\u0000' }).split('\u0000');
  const until = replenishIn(now());
  const time =
    until.kind === 'underAnHour'
      ? t('credits.lessThanHour')
      : until.kind === 'aboutOneHour'
        ? t('credits.aboutOneHour')
        : t('credits.aboutHours', { hours: until.hours });

  return (
    <div className="flex flex-col gap-5">
      <div className="rounded-2xl border border-slate-200 bg-slate-50 p-4 dark:border-slate-800 dark:bg-slate-950/40">
        <div className="flex items-center gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-amber-100 text-amber-600 dark:bg-amber-950/60 dark:text-amber-400">
            <Coins className="size-5" aria-hidden="true" />
          </span>
          <p
            data-testid="credit-balance"
            data-credits={known ? credits : undefined}
            aria-live="polite"
            className="min-w-0 flex-1 text-base break-keep text-slate-700 dark:text-slate-200"
          >
            {before}
            <strong className={cn('text-xl font-bold tabular-nums', known && toneText[balanceTone(credits)])}>
              {known ? numbers.format(credits) : '…'}
            </strong>
            {after}
          </p>
          <Button
            size="icon"
            variant="ghost"
            onClick={refresh}
            aria-label={t('credits.refresh')}
            title={t('credits.refresh')}
            aria-busy={loading || undefined}
            data-testid="credit-refresh"
          >
            <RotateCw className={cn('size-5', loading && 'animate-spin')} aria-hidden="true" />
          </Button>
        </div>
        {known && showsReplenishHint(credits) && (
          <p data-testid="credit-replenish" className="mt-3 text-sm text-slate-500 dark:text-slate-400">
            {t('credits.replenish', { time })}
          </p>
        )}
      </div>

      <div>
        <p className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">{t('credits.buyMore')}</p>
        <div className="grid grid-cols-3 gap-2">
          {CREDIT_PACKAGES.map((pack) => {
            const price = `¥${numbers.format(pack.priceJpy)}`;
            return (
              <button
                key={pack.productId}
                type="button"
                onClick={() => void buy(pack.amount)}
                disabled={purchasing !== null}
                aria-label={t('credits.buyLabel', { credits: numbers.format(pack.amount), price })}
                data-testid="credit-package"
                data-credits={pack.amount}
                className="flex cursor-pointer flex-col items-center gap-1 rounded-2xl border border-slate-200 bg-white px-2 py-3 transition-colors hover:border-indigo-400 hover:bg-indigo-50 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none disabled:pointer-events-none disabled:opacity-50 dark:border-slate-700 dark:bg-slate-900 dark:hover:border-indigo-500 dark:hover:bg-indigo-950/40"
              >
                <span className="text-lg font-bold text-slate-900 tabular-nums dark:text-white">
                  {numbers.format(pack.amount)}
                </span>
                <span className="text-xs text-slate-500 dark:text-slate-400">{t('credits.unit')}</span>
                <span className="mt-1 inline-flex h-7 min-w-16 items-center justify-center rounded-full bg-indigo-600 px-3 text-sm font-semibold text-white dark:bg-indigo-500">
                  {purchasing === pack.amount ? <Spinner className="size-4" /> : price}
                </span>
              </button>
            );
          })}
        </div>
      </div>
    </div>
  );
}

import { Coins } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { lazyDialog } from '#web/components/ui/lazy-dialog';
import { cn } from '#web/lib/cn';
import { useI18n } from '#web/lib/i18n';
import { localeFor } from '#web/lib/time';
import { balanceStore, useBalance } from '../hooks/use-balance';
import { balanceTone, totalCredits } from '../utils/balance';
import { toneChip } from './tone';
import { logPaymentFailure } from '../utils/payment-log';

// Loaded when first opened (decision 0084).
const CreditDialog = lazyDialog(async () => (await import('./credit-dialog')).CreditDialog);

/**
 * The header's credit balance (signed-in users only): the number in red below
 * 250, orange to 700, green above; a click opens Credit Balance. It shows the stored `bal` at once and asks
 * the server once on mount; `system BALANCE` frames keep it current after that.
 */
export function BalanceButton({ token }: { token: string }) {
  const { t, language } = useI18n();
  const balance = useBalance();
  const [open, setOpen] = useState(false);
  // stable, so the open dialog does not refocus each time a BALANCE frame re-renders the button
  const close = useCallback(() => setOpen(false), []);

  useEffect(() => {
    let active = true;
    // wallet-api (and its zod schemas) loads with this request, not with the room screen (decision 0084)
    import('../api/wallet-api')
      .then(({ fetchBalance }) => fetchBalance(token))
      .then((fresh) => {
        if (active) balanceStore.set(fresh);
      })
      .catch((error: unknown) => logPaymentFailure('balance fetch failed', error));
    return () => {
      active = false;
    };
  }, [token]);

  const credits = balance ? totalCredits(balance) : undefined;
  const tone = credits === undefined ? undefined : balanceTone(credits);
  const shown = credits === undefined ? '…' : new Intl.NumberFormat(localeFor(language)).format(credits);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        aria-label={t('credits.button', { count: shown })}
        title={t('credits.title')}
        data-testid="balance-button"
        data-tone={tone}
        data-credits={credits}
        className={cn(
          'inline-flex h-8 shrink-0 cursor-pointer items-center gap-1.5 rounded-full border px-2.5 text-sm font-semibold whitespace-nowrap tabular-nums transition-colors',
          'focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 focus-visible:outline-none dark:focus-visible:ring-offset-slate-950',
          tone
            ? toneChip[tone]
            : 'border-slate-200 bg-white text-slate-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-400',
        )}
      >
        <Coins className="size-4" aria-hidden="true" />
        {shown}
      </button>
      <CreditDialog open={open} onClose={close} token={token} />
    </>
  );
}

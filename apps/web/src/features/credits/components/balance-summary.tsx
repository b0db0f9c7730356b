import { Coins, RotateCw } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { cn } from '#web/lib/cn';
import { useI18n, type I18n } from '#web/lib/i18n';
import { localeFor } from '#web/lib/time';
import { useBalance } from '../hooks/use-balance';
import {
  balanceTone,
  replenishIn,
  showsReplenishHint,
  totalCredits,
  type ReplenishIn,
} from '../utils/balance';
import { toneText } from './tone';

/**
 * 'You have N credits.' in the tone of the balance, the refresh button that spins while loading, and the
 * 'Replenishes in …' hint when the balance is low.
 */
export function BalanceSummary({
  loading,
  onRefresh,
  now,
}: {
  loading: boolean;
  onRefresh: () => void;
  now: () => number;
}) {
  const { t, language } = useI18n();
  const balance = useBalance();
  const numbers = new Intl.NumberFormat(localeFor(language));
  // A balance is 0 and 0 until the server tells otherwise.
  const credits = balance ? totalCredits(balance) : 0;
  const known = balance !== undefined || !loading;
  const [before, after] = t('credits.youHave', { count: '\u0000' }).split('\u0000');
  return (
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
          onClick={onRefresh}
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
          {t('credits.replenish', { time: replenishText(t, replenishIn(now())) })}
        </p>
      )}
    </div>
  );
}

function replenishText(t: I18n['t'], until: ReplenishIn): string {
  if (until.kind === 'underAnHour') return t('credits.lessThanHour');
  if (until.kind === 'aboutOneHour') return t('credits.aboutOneHour');
  return t('credits.aboutHours', { hours: until.hours });
}

import { CREDIT_PACKAGES } from '@xtalk/protocol';
import { Spinner } from '#web/components/ui/spinner';
import { useI18n } from '#web/lib/i18n';
import { localeFor } from '#web/lib/time';

/** 'Buy more credits:' and the packages, each with its price; the one being bought spins. */
export function CreditPackages({
  purchasing,
  onBuy,
}: {
  purchasing: number | null;
  onBuy: (credits: number) => void;
}) {
  const { t, language } = useI18n();
  const numbers = new Intl.NumberFormat(localeFor(language));
  return (
    <div>
      <p className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">{t('credits.buyMore')}</p>
      <div className="grid grid-cols-3 gap-2">
        {CREDIT_PACKAGES.map((pack) => {
          const price = `¥${numbers.format(pack.priceJpy)}`;
          return (
            <button
              key={pack.productId}
              type="button"
              onClick={() => onBuy(pack.amount)}
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
  );
}

import { RotateCcw, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useI18n } from '#web/lib/i18n';

export interface FailedMarkProps {
  /** Given to the author: asks for the failed translations again (paid as any translation). */
  onRetry?: (() => void) | undefined;
}

/**
 * The lasting, quiet mark of a translation that failed for good: "Not translated", its reason shown on
 * hover (title) and on tap (the mark is a toggle, for touch screens), and "Try again" for the author.
 */
export function FailedMark({ onRetry }: FailedMarkProps) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [asked, setAsked] = useState(false);
  return (
    <div data-testid="translation-failed" className="mt-1.5 flex flex-wrap items-center gap-2 px-1 text-xs">
      <button
        type="button"
        title={t('chat.failed.reason')}
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
        className="inline-flex cursor-pointer items-center gap-1 rounded-full px-2 py-0.5 text-slate-600 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-slate-800"
      >
        <TriangleAlert aria-hidden="true" className="size-3.5" />
        {t('chat.failed.mark')}
      </button>
      {onRetry && (
        <button
          type="button"
          data-testid="retranslate"
          disabled={asked}
          onClick={() => {
            setAsked(true);
            onRetry();
          }}
          className="inline-flex cursor-pointer items-center gap-1 rounded-full px-2 py-0.5 font-medium text-indigo-700 hover:bg-indigo-50 disabled:cursor-default disabled:opacity-60 dark:text-indigo-300 dark:hover:bg-indigo-950"
        >
          <RotateCcw aria-hidden="true" className="size-3.5" />
          {t('chat.failed.retry')}
        </button>
      )}
      {open && (
        <p role="note" className="basis-full text-slate-600 dark:text-slate-400">
          {t('chat.failed.reason')}
        </p>
      )}
    </div>
  );
}

import { History, Sparkles, X } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { useI18n } from '#web/lib/i18n';
import type { CatchUpState } from '../hooks/use-catch-up';

/** The offer to catch up, shown above the messages once 20 or more were missed. */
export function CatchUpOffer(props: { missed: number; onCatchUp: () => void; onDismiss: () => void }) {
  const { t } = useI18n();
  return (
    <div
      className="mx-auto flex w-full max-w-4xl items-center gap-2 px-3 pt-2 sm:px-6"
      data-testid="catch-up-offer"
    >
      <div className="flex min-w-0 flex-1 items-center gap-2 rounded-xl border border-indigo-200 bg-indigo-50 py-1.5 pr-1.5 pl-3 text-sm text-indigo-900 dark:border-indigo-900 dark:bg-indigo-950 dark:text-indigo-100">
        <History className="size-4 shrink-0" aria-hidden />
        <span className="min-w-0 flex-1 truncate">{t('catchUp.missed', { count: props.missed })}</span>
        <Button size="sm" onClick={props.onCatchUp} data-testid="catch-up">
          <Sparkles className="size-4" /> {t('catchUp.action')}
        </Button>
        <button
          type="button"
          onClick={props.onDismiss}
          aria-label={t('common.close')}
          className="rounded-lg p-1.5 text-indigo-700 hover:bg-indigo-100 dark:text-indigo-200 dark:hover:bg-indigo-900"
        >
          <X className="size-4" />
        </button>
      </div>
    </div>
  );
}

/** The summary as it streams in, for this person alone; it can be closed at any time. */
export function CatchUpPanel(props: { summary: CatchUpState; onClose: () => void }) {
  const { t } = useI18n();
  if (!props.summary.open) return null;
  const { text, done } = props.summary;
  return (
    <section
      className="mx-auto w-full max-w-4xl px-3 pt-2 sm:px-6"
      aria-label={t('catchUp.title')}
      aria-live="polite"
      data-testid="catch-up-panel"
    >
      <div className="rounded-2xl border border-slate-200 bg-white p-3 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <div className="mb-1 flex items-center gap-2">
          <Sparkles className="size-4 text-indigo-600 dark:text-indigo-400" aria-hidden />
          <h2 className="flex-1 text-sm font-semibold text-slate-900 dark:text-slate-100">
            {t('catchUp.title')}
          </h2>
          {!done && <Spinner className="size-4" />}
          <button
            type="button"
            onClick={props.onClose}
            aria-label={t('catchUp.close')}
            data-testid="catch-up-close"
            className="rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-slate-800"
          >
            <X className="size-4" />
          </button>
        </div>
        <p
          className="max-h-48 overflow-y-auto text-sm whitespace-pre-wrap text-slate-800 dark:text-slate-200"
          data-testid="catch-up-text"
          data-done={done ? 'true' : 'false'}
        >
          {text || t('catchUp.writing')}
        </p>
      </div>
    </section>
  );
}

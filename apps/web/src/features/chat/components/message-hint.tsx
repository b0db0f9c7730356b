import { Lightbulb } from 'lucide-react';
import { useI18n } from '#web/lib/i18n';
import { cn } from '#web/lib/cn';

/**
 * The Hint toggle under someone else's message, and the note it shows. Whether it is open is the
 * message's, so it outlasts a note that goes with a correction and comes back with the next.
 */
export function MessageHint({
  note,
  showNote,
  setShowNote,
}: {
  note: string;
  showNote: boolean;
  setShowNote: (update: (shown: boolean) => boolean) => void;
}) {
  const { t } = useI18n();
  return (
    <div className="mt-1.5 px-1">
      <button
        type="button"
        data-testid="hint-toggle"
        aria-expanded={showNote}
        onClick={() => setShowNote((value) => !value)}
        className={cn(
          'inline-flex cursor-pointer items-center gap-1 rounded-full px-2.5 py-1 text-xs font-medium transition-colors',
          showNote
            ? 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200'
            : 'text-slate-500 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-slate-800',
        )}
      >
        <Lightbulb className="size-3.5" aria-hidden="true" />
        {showNote ? t('chat.hideHint') : t('chat.hint')}
      </button>
      {showNote && (
        <p
          data-testid="note"
          dir="auto"
          className="mt-1.5 rounded-2xl bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200 dark:bg-amber-950/40 dark:text-amber-100 dark:ring-amber-900"
        >
          {note}
        </p>
      )}
    </div>
  );
}

import { AlertCircle, RotateCw, X } from 'lucide-react';
import { Spinner } from '#web/components/ui/spinner';
import { useI18n } from '#web/lib/i18n';

/** A message typed but not yet acknowledged by the server (the room's outbox). */
export interface PendingMessage {
  clientId: string;
  text: string;
  status: 'sending' | 'failed';
  error?: string | undefined;
  /** The socket is away: it goes out when the room is back. */
  waiting?: boolean | undefined;
}

/** Shown as the sender's own message, greyed while sending, with Retry when the server refused it. */
export function PendingMessageItem({
  message,
  onRetry,
  onDiscard,
}: {
  message: PendingMessage;
  onRetry: (clientId: string) => void;
  onDiscard: (clientId: string) => void;
}) {
  const { t } = useI18n();
  const failed = message.status === 'failed';
  return (
    <div
      data-testid="pending-message"
      data-status={message.status}
      data-waiting={message.waiting || undefined}
      className="flex max-w-[85%] min-w-0 flex-col items-end gap-1 self-end sm:max-w-[75%]"
    >
      <p
        className={`rounded-2xl px-4 py-2 text-base break-words whitespace-pre-wrap ${
          failed
            ? 'border border-red-300 bg-red-50 text-slate-900 dark:border-red-800 dark:bg-red-950/40 dark:text-slate-100'
            : 'bg-indigo-600/60 text-white dark:bg-indigo-500/50'
        }`}
      >
        {message.text}
      </p>
      {failed ? (
        <div className="flex flex-wrap items-center justify-end gap-2 text-xs text-red-700 dark:text-red-300">
          <AlertCircle className="size-3.5" aria-hidden="true" />
          <span role="alert">{t('chat.notSent', { message: message.error ?? '' })}</span>
          <button
            type="button"
            data-testid="pending-retry"
            onClick={() => onRetry(message.clientId)}
            className="inline-flex cursor-pointer items-center gap-1 rounded-full border border-red-300 px-2 py-0.5 font-semibold hover:bg-red-100 dark:border-red-800 dark:hover:bg-red-900/40"
          >
            <RotateCw className="size-3" aria-hidden="true" />
            {t('chat.retry')}
          </button>
          <button
            type="button"
            onClick={() => onDiscard(message.clientId)}
            aria-label={t('chat.discard')}
            className="inline-flex cursor-pointer items-center rounded-full p-0.5 hover:bg-red-100 dark:hover:bg-red-900/40"
          >
            <X className="size-3.5" aria-hidden="true" />
          </button>
        </div>
      ) : (
        <span className="flex items-center gap-1 text-xs text-slate-500 dark:text-slate-400">
          <Spinner className="size-3" />
          {message.waiting ? t('chat.willSend') : t('chat.sending')}
        </span>
      )}
    </div>
  );
}

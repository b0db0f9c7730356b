import { RefreshCw, WifiOff } from 'lucide-react';
import { DelayedSpinner, Spinner } from '#web/components/ui/spinner';
import { useI18n } from '#web/lib/i18n';
import type { ConnectionState } from '#web/lib/socket-client';

/** Full-screen 'Connecting...' while the first connection is made. */
export function ConnectionOverlays({ state }: { state: ConnectionState }) {
  return state === 'connecting' ? <ConnectingOverlay /> : null;
}

function ConnectingOverlay() {
  const { t } = useI18n();
  // 'Connecting...' at once; the spinner only if the connection takes a while
  return (
    <div
      data-testid="connecting-overlay"
      role="status"
      className="fixed inset-0 z-30 flex flex-col items-center justify-center gap-3 bg-white text-slate-700 dark:bg-slate-950 dark:text-slate-200"
    >
      <DelayedSpinner className="size-8 text-indigo-600 dark:text-indigo-400" />
      <p className="text-base font-medium">{t('room.connecting')}</p>
    </div>
  );
}

/**
 * One thing at a time under the header, in the page's flow so it covers nothing: while the client retries
 * by itself, a thin 'Reconnecting...' line (the list and the composer stay usable, typed messages wait in
 * the outbox); once it has given up, 'Disconnected.' with 'Tap to Reconnect'.
 */
export function ReconnectBanner({ state, onReconnect }: { state: ConnectionState; onReconnect: () => void }) {
  const { t } = useI18n();
  if (state === 'reconnecting')
    return (
      <div
        role="status"
        data-testid="reconnecting-banner"
        className="flex items-center justify-center gap-2 border-b border-amber-200 bg-amber-50 px-3 py-0.5 text-xs text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100"
      >
        <Spinner className="size-3" />
        {t('room.reconnecting')}
      </div>
    );
  if (state !== 'disconnected') return null;
  return (
    <div className="flex justify-center border-b border-amber-200 bg-amber-50 px-3 py-1.5 dark:border-amber-900/60 dark:bg-amber-950/40">
      <div
        role="status"
        data-testid="disconnected-banner"
        className="flex w-full max-w-4xl items-center gap-3 sm:px-3"
      >
        <WifiOff className="size-4 shrink-0 text-amber-700 dark:text-amber-300" aria-hidden="true" />
        <p className="min-w-0 flex-1 text-sm text-amber-900 dark:text-amber-100">{t('room.disconnected')}</p>
        <button
          type="button"
          data-testid="reconnect-button"
          onClick={onReconnect}
          className="inline-flex shrink-0 cursor-pointer items-center gap-1.5 rounded-full bg-indigo-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-indigo-500 focus-visible:ring-2 focus-visible:ring-indigo-400 focus-visible:outline-none"
        >
          <RefreshCw className="size-4" aria-hidden="true" />
          {t('room.reconnect')}
        </button>
      </div>
    </div>
  );
}

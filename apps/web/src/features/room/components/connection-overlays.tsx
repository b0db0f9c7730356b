import { RefreshCw, WifiOff } from 'lucide-react';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../lib/i18n';
import type { ConnectionState } from '../../../lib/socket-client';

/**
 * Full-screen 'Connecting...' while the first connection is made; while reconnecting, a banner under the
 * header with 'Tap to Reconnect' that leaves the list and the composer usable (typed messages wait in
 * the outbox and go out when the socket is back).
 */
export function ConnectionOverlays({
  state,
  onReconnect,
}: {
  state: ConnectionState;
  onReconnect: () => void;
}) {
  const { t } = useI18n();
  if (state === 'connecting') {
    return (
      <div
        data-testid="connecting-overlay"
        role="status"
        className="fixed inset-0 z-30 flex flex-col items-center justify-center gap-3 bg-white/85 text-slate-700 backdrop-blur-sm dark:bg-slate-950/85 dark:text-slate-200"
      >
        <Spinner className="size-8 text-indigo-600 dark:text-indigo-400" />
        <p className="text-base font-medium">{t('room.connecting')}</p>
      </div>
    );
  }
  if (state === 'reconnecting') {
    return (
      <div className="pointer-events-none fixed inset-x-0 top-16 z-30 flex justify-center px-3">
        <div
          role="status"
          data-testid="reconnecting-banner"
          className="pointer-events-auto flex max-w-md items-center gap-3 rounded-full bg-white py-1.5 pr-1.5 pl-4 shadow-lg ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700"
        >
          <WifiOff className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
          <p className="text-sm text-slate-600 dark:text-slate-300">{t('room.reconnecting')}</p>
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
  return null;
}

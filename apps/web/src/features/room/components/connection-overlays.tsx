import { RefreshCw, WifiOff } from 'lucide-react';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../lib/i18n';
import type { ConnectionState } from '../../../lib/socket-client';

/** Full-screen 'Connecting...' while the first connection is made, 'Tap to Reconnect' while reconnecting. */
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
      <div className="fixed inset-0 z-30 flex items-center justify-center bg-slate-950/40 p-6 backdrop-blur-[2px]">
        <div className="flex max-w-xs flex-col items-center gap-4 rounded-3xl bg-white p-6 text-center shadow-2xl dark:bg-slate-900">
          <WifiOff className="size-8 text-slate-400" aria-hidden="true" />
          <p className="text-sm text-slate-600 dark:text-slate-300">{t('room.reconnecting')}</p>
          <button
            type="button"
            data-testid="reconnect-button"
            onClick={onReconnect}
            className="inline-flex cursor-pointer items-center gap-2 rounded-full bg-indigo-600 px-6 py-3 text-base font-semibold text-white shadow-lg hover:bg-indigo-500 focus-visible:ring-2 focus-visible:ring-indigo-400 focus-visible:outline-none"
          >
            <RefreshCw className="size-5" aria-hidden="true" />
            {t('room.reconnect')}
          </button>
        </div>
      </div>
    );
  }
  return null;
}

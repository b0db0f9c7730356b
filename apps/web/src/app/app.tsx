import { useState } from 'react';
import { DelayedSpinner } from '#web/components/ui/spinner';
import { MiniAppSignIn } from '#web/features/auth/components/mini-app-sign-in';
import { miniAppInitData } from '#web/features/auth/utils/mini-app';
import { useI18n } from '#web/lib/i18n';
import { BrowserRouter, Routes } from '#web/lib/router';
import { AppProviders } from './providers';
import { routes } from './router';

/**
 * While a lazy screen loads: 'Loading...' at once, and a spinner above it only once the wait is long (the
 * code is usually there well within a second, and a turning spinner is a frame to draw every 16 ms while
 * the next screen loads: decision 0122).
 * Those words are also the page's first text: laying text out the first time (fonts, line breaking) is
 * a task of its own, and here it is done with the first paint rather than in the room screen's first layout (0085).
 */
function Loading() {
  const { t } = useI18n();
  return (
    <div
      className="flex min-h-dvh flex-col items-center justify-center gap-3 text-slate-500 dark:text-slate-400"
      role="status"
    >
      <DelayedSpinner className="size-7 text-indigo-600 dark:text-indigo-400" />
      <p className="text-sm">{t('common.loading')}</p>
    </div>
  );
}

export function App() {
  const [miniApp] = useState(miniAppInitData);
  const pages = <Routes routes={routes} fallback={<Loading />} />;
  return (
    <AppProviders>
      <BrowserRouter>
        {miniApp ? (
          <MiniAppSignIn initData={miniApp} waiting={<Loading />}>
            {pages}
          </MiniAppSignIn>
        ) : (
          pages
        )}
      </BrowserRouter>
    </AppProviders>
  );
}

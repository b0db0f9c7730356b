import { Spinner } from '../components/ui/spinner';
import { useI18n } from '../lib/i18n';
import { BrowserRouter, Routes } from '../lib/router';
import { AppProviders } from './providers';
import { routes } from './router';

/**
 * While a lazy screen loads: a quiet spinner where the page will be, and its words for screen readers.
 * Those words are also the page's first text: laying text out the first time (fonts, line breaking) costs
 * ~10 ms, and here it is done with the first paint rather than in the room screen's first layout (0085).
 */
function Loading() {
  const { t } = useI18n();
  return (
    <div className="flex min-h-dvh items-center justify-center" role="status">
      <Spinner className="size-7 text-indigo-600 dark:text-indigo-400" />
      <span className="sr-only">{t('common.loading')}</span>
    </div>
  );
}

export function App() {
  return (
    <AppProviders>
      <BrowserRouter>
        <Routes routes={routes} fallback={<Loading />} />
      </BrowserRouter>
    </AppProviders>
  );
}

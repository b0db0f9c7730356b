import { Spinner } from '../components/ui/spinner';
import { BrowserRouter, Routes } from '../lib/router';
import { AppProviders } from './providers';
import { routes } from './router';

// While a lazy screen loads: a quiet spinner where the page will be.
const loading = (
  <div className="flex min-h-dvh items-center justify-center" role="status">
    <Spinner className="size-7 text-indigo-600 dark:text-indigo-400" />
  </div>
);

export function App() {
  return (
    <AppProviders>
      <BrowserRouter>
        <Routes routes={routes} fallback={loading} />
      </BrowserRouter>
    </AppProviders>
  );
}

import { Suspense, lazy, useEffect, type ReactNode } from 'react';
import { applyTheme, useTheme } from '../lib/theme';

// No page shows a toast in its first paint, and the screens that do toast load sonner with themselves: the
// toaster comes after the first render, and toasts made before it mounts are shown when it does (sonner
// replays the active ones to a new subscriber). Keeps sonner out of the first load (decision 0189).
const Toaster = lazy(async () => ({ default: (await import('sonner')).Toaster }));

const TOAST_BOTTOM = 'calc(var(--toast-floor, 0px) + 12px)';

/** App-wide providers: theme class on <html> and the toaster (bottom-centre above the footer, 2 visible, close button). */
export function AppProviders({ children }: { children: ReactNode }) {
  const theme = useTheme();
  useEffect(() => {
    applyTheme(theme);
    if (theme !== 'system') return;
    // The stored default follows the OS live.
    const query = window.matchMedia?.('(prefers-color-scheme: dark)');
    const onChange = () => applyTheme('system');
    query?.addEventListener('change', onChange);
    return () => query?.removeEventListener('change', onChange);
  }, [theme]);
  const resolved = theme === 'system' ? 'system' : theme;
  return (
    <>
      {children}
      <Suspense fallback={null}>
        <Toaster
          position="bottom-center"
          visibleToasts={2}
          closeButton
          richColors
          // Just above the room's footer: never over the header, the newest message (the list's top) or the
          // composer; the toaster clips what would slide below that line (index.css).
          offset={{ bottom: TOAST_BOTTOM }}
          mobileOffset={{ bottom: TOAST_BOTTOM }}
          theme={resolved}
          // Both interface languages (en, ja) read left to right. Without it sonner asks getComputedStyle on
          // every render of the toaster, a forced style recalculation in the task that shows 'Ready!'.
          dir="ltr"
          // Sonner sets its own font stack; the app's one carries the Japanese fallbacks.
          toastOptions={{ style: { fontFamily: 'inherit' } }}
        />
      </Suspense>
    </>
  );
}

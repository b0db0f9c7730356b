import { Suspense, lazy, useEffect, type ReactNode } from 'react';
import { applyTheme, useTheme } from '#web/lib/theme';
import { useToasterWanted } from '#web/lib/toaster-demand';

// Sonner is not in the first load: the toaster is loaded and mounted once a screen that can toast has
// loaded (lib/toast.ts), with sonner already in that screen's chunks (decision 0189).
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
  const toasterWanted = useToasterWanted();
  return (
    <>
      {children}
      {toasterWanted && (
        <Suspense fallback={null}>
          <Toaster
            position="bottom-center"
            visibleToasts={2}
            closeButton
            richColors
            // Just above the room's footer: never over the header, the newest message (the list's top) or
            // the composer; the toaster clips what would slide below that line (index.css).
            offset={{ bottom: TOAST_BOTTOM }}
            mobileOffset={{ bottom: TOAST_BOTTOM }}
            theme={resolved}
            // Both interface languages (en, ja) read left to right. Without it sonner asks getComputedStyle
            // on every render of the toaster, a forced style recalculation in the task that shows 'Ready!'.
            dir="ltr"
            // Sonner sets its own font stack; the app's one carries the Japanese fallbacks.
            toastOptions={{ style: { fontFamily: 'inherit' } }}
          />
        </Suspense>
      )}
    </>
  );
}

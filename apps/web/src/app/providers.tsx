import { useEffect, type ReactNode } from 'react';
import { Toaster } from 'sonner';
import { applyTheme, useTheme } from '../lib/theme';

/** App-wide providers: theme class on <html> and the toaster (top-centre, 2 visible, close button). */
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
      <Toaster
        position="top-center"
        visibleToasts={2}
        closeButton
        richColors
        // Below the room header (h-14), never over Invite or the menus (issue 12, item 3).
        offset={{ top: 68 }}
        mobileOffset={{ top: 68 }}
        theme={resolved}
        // Both interface languages (en, ja) read left to right. Without it sonner asks getComputedStyle on
        // every render of the toaster, a forced style recalculation in the task that shows 'Ready!'.
        dir="ltr"
        // Sonner sets its own font stack; the app's one carries the Japanese fallbacks.
        toastOptions={{ style: { fontFamily: 'inherit' } }}
      />
    </>
  );
}

import { useCallback, useSyncExternalStore } from 'react';

/** Whether a CSS media query matches, following changes (rotation, pointer). False where unsupported. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = typeof window !== 'undefined' ? window.matchMedia?.(query) : undefined;
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    [query],
  );
  const read = () => (typeof window !== 'undefined' && window.matchMedia?.(query).matches) || false;
  return useSyncExternalStore(subscribe, read, () => false);
}

import { useCallback, useRef } from 'react';

/**
 * Toasts sit just above the room's footer, so they never cover the composer, the header or the newest
 * message (the list's top). The footer's height changes with the viewport, the keyboard and the typing
 * line, so it is measured and handed to the toaster as `--toast-floor`; pages without a footer leave it
 * unset and the toaster falls back to the bottom edge.
 */
export function useToastFloor() {
  const observer = useRef<ResizeObserver | null>(null);
  return useCallback((footer: HTMLElement | null) => {
    const root = document.documentElement;
    observer.current?.disconnect();
    observer.current = null;
    if (!footer) {
      root.style.removeProperty('--toast-floor');
      return;
    }
    const set = () => root.style.setProperty('--toast-floor', `${footer.getBoundingClientRect().height}px`);
    set();
    if (typeof ResizeObserver === 'function') {
      observer.current = new ResizeObserver(set);
      observer.current.observe(footer);
    }
  }, []);
}

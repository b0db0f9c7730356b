import { useSyncExternalStore } from 'react';
import { StorageKey, readString, writeString } from './storage';

/** Theme under `ui-theme`: light, dark or system (default). Applied as the `dark` class on <html>. */
export type Theme = 'light' | 'dark' | 'system';

const listeners = new Set<() => void>();

export function getTheme(): Theme {
  const stored = readString(StorageKey.theme);
  return stored === 'light' || stored === 'dark' || stored === 'system' ? stored : 'system';
}

function prefersDark(): boolean {
  return (
    typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches === true
  );
}

export function applyTheme(theme: Theme = getTheme()): void {
  if (typeof document === 'undefined') return;
  const dark = theme === 'dark' || (theme === 'system' && prefersDark());
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}

export function setTheme(theme: Theme): void {
  writeString(StorageKey.theme, theme);
  applyTheme(theme);
  for (const listener of listeners) listener();
}

export function useTheme(): Theme {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getTheme,
    getTheme,
  );
}

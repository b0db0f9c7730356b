import { useSyncExternalStore } from 'react';
import { StorageKey, readString, writeString } from './storage';

/**
 * Theme under `ui-theme`: light, dark or system (default). Applied as the `light` or `dark` class on
 * <html>: Tailwind's dark variant and the document's color-scheme (index.css) follow it.
 */
export type Theme = 'light' | 'dark' | 'system';

const listeners = new Set<() => void>();

export function getTheme(): Theme {
  const stored = readString(StorageKey.theme);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

export function applyTheme(theme: Theme = getTheme()): void {
  if (typeof document === 'undefined') return;
  const dark =
    theme === 'dark' ||
    (theme === 'system' && window.matchMedia?.('(prefers-color-scheme: dark)').matches === true);
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.classList.toggle('light', !dark);
  // index.html's two theme-color tags (one per system scheme) take the header's colour of the theme in
  // use (bg-white, dark:bg-slate-900), so the browser's bar follows a theme chosen in the app
  for (const meta of document.getElementsByName('theme-color') as NodeListOf<HTMLMetaElement>) {
    meta.content = dark ? '#0f172a' : '#fff';
  }
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

import { useSyncExternalStore } from 'react';

/*
 * Whether the page needs sonner's toaster: set once by the first module that can toast (lib/toast.ts, which
 * every toast goes through), read by the app's providers, which only then load and mount the toaster. A page
 * that never toasts (sign-in, the error pages) never downloads sonner (decision 0189).
 */
let wanted = false;
const listeners = new Set<() => void>();

export function wantToaster(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const isWanted = () => wanted;

export const useToasterWanted = (): boolean => useSyncExternalStore(subscribe, isWanted, isWanted);

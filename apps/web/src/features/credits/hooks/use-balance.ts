import type { Balance } from '@xtalk/protocol';
import { useSyncExternalStore } from 'react';
import { StorageKey, readJson, remove, writeJson } from '#web/lib/storage';

/*
 * The signed-in user's balance, one truth for the header button and the Credit Balance dialog. It is
 * persisted under the `bal` key (docs/product.md#browser-storage) so the header shows the last known
 * balance at once, and written from three places: the wallet API (dialog opens, checkout lands),
 * `system BALANCE` frames (every change the server makes while the room is open) and other tabs of the
 * same browser (the checkout window writes `bal` when the order is paid; the `storage` event carries it
 * here without a reload).
 */

type Listener = () => void;
const listeners = new Set<Listener>();
let current: Balance | undefined;
let loaded = false;

const isCount = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * The stored balance, checked by hand against protocol's balanceSchema (two counts): this runs when the
 * room screen first renders, before zod is loaded (decision 0084).
 */
function readStored(): Balance | undefined {
  const stored = readJson<{ free?: unknown; premium?: unknown } | null>(StorageKey.bal);
  if (typeof stored !== 'object' || stored === null) return undefined;
  return isCount(stored.free) && isCount(stored.premium)
    ? { free: stored.free as number, premium: stored.premium as number }
    : undefined;
}

function emit(): void {
  for (const listener of listeners) listener();
}

// Another tab wrote `bal` (localStorage's own cross-tab event; never fired in the tab that wrote).
function onStorage(event: StorageEvent): void {
  if (event.key !== StorageKey.bal && event.key !== null) return;
  current = readStored();
  loaded = true;
  emit();
}

export const balanceStore = {
  get(): Balance | undefined {
    if (!loaded) {
      loaded = true;
      current = readStored();
    }
    return current;
  },
  set(balance: Balance): void {
    const next = { free: balance.free, premium: balance.premium };
    loaded = true;
    if (current && current.free === next.free && current.premium === next.premium) return;
    current = next;
    writeJson(StorageKey.bal, next);
    emit();
  },
  clear(): void {
    remove(StorageKey.bal);
    current = undefined;
    loaded = true;
    emit();
  },
  subscribe(listener: Listener): () => void {
    if (listeners.size === 0 && typeof window !== 'undefined') window.addEventListener('storage', onStorage);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && typeof window !== 'undefined')
        window.removeEventListener('storage', onStorage);
    };
  },
  /** Tests only: forget the in-memory copy so the next get() reads storage again. */
  reset(): void {
    loaded = false;
    current = undefined;
  },
};

/** The last known balance (undefined until one is known), re-rendering whenever it changes. */
export function useBalance(): Balance | undefined {
  return useSyncExternalStore(balanceStore.subscribe, balanceStore.get, balanceStore.get);
}

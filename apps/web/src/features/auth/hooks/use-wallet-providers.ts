import { useEffect, useState } from 'react';
import type { Eip1193Provider } from '../utils/eip1193';

/** A wallet the browser offers: announced by EIP-6963 (with its name and icon), or `window.ethereum`. */
export interface InjectedWallet {
  id: string;
  name: string;
  /** A data: image the wallet announced; other addresses are not loaded. */
  icon?: string;
  provider: Eip1193Provider;
}

interface Announcement {
  info?: { uuid?: unknown; name?: unknown; icon?: unknown };
  provider?: Eip1193Provider;
}

const isProvider = (value: unknown): value is Eip1193Provider =>
  typeof (value as Eip1193Provider | undefined)?.request === 'function';

function legacyWallet(): InjectedWallet[] {
  const provider = (window as { ethereum?: unknown }).ethereum;
  return isProvider(provider) ? [{ id: 'injected', name: '', provider }] : [];
}

function announced(detail: Announcement | undefined): InjectedWallet | undefined {
  const { uuid, name, icon } = detail?.info ?? {};
  if (typeof uuid !== 'string' || typeof name !== 'string' || !isProvider(detail?.provider)) return;
  const image = typeof icon === 'string' && icon.startsWith('data:image/') ? icon : undefined;
  return { id: uuid, name, provider: detail.provider, ...(image ? { icon: image } : {}) };
}

/**
 * The wallets injected into this page. Each EIP-6963 announcement adds one (several wallets may); the
 * legacy `window.ethereum` stands alone only until a wallet announces itself, as it is one of them.
 */
export function useInjectedWallets(): InjectedWallet[] {
  const [wallets, setWallets] = useState<InjectedWallet[]>(legacyWallet);
  useEffect(() => {
    function onAnnounce(event: Event) {
      const wallet = announced((event as CustomEvent<Announcement>).detail);
      if (!wallet) return;
      setWallets((known) => [
        ...known.filter((other) => other.id !== wallet.id && other.id !== 'injected'),
        wallet,
      ]);
    }
    window.addEventListener('eip6963:announceProvider', onAnnounce);
    window.dispatchEvent(new Event('eip6963:requestProvider'));
    return () => window.removeEventListener('eip6963:announceProvider', onAnnounce);
  }, []);
  return wallets;
}

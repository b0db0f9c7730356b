import type { AuthConfig } from '@xtalk/protocol';
import { Suspense, lazy } from 'react';
import { useI18n } from '#web/lib/i18n';
import { useInjectedWallets } from '../hooks/use-wallet-providers';
import { OrDivider } from './or-divider';
import { GoogleButton } from './google-button';
import { TelegramSignIn } from './telegram-sign-in';

// a wallet's sign-in (with its dialog) loads only in a browser that has a wallet to offer
const WalletSignIn = lazy(async () => ({ default: (await import('./wallet-sign-in')).WalletSignIn }));

// the Mini App's sign-in shares this chunk: one chunk of sign-in code that only sign-ins load
export { signInFromMiniApp } from '../utils/mini-app-session';

/**
 * The sign-ins above the email form, each only where it can work: Google and Telegram when the server
 * has them configured, a wallet when the server takes wallets and the browser has one injected.
 */
export function SignInProviders({ config, signup }: { config: AuthConfig; signup: boolean }) {
  const { t } = useI18n();
  const wallets = useInjectedWallets();
  const wallet = config.wallet && wallets.length > 0 ? config.wallet : undefined;
  const telegram = config.telegram || undefined;
  return (
    <div data-testid="sign-in-providers" data-state="ready" className="contents">
      {config.google && <GoogleButton label={t(signup ? 'signup.google' : 'login.google')} />}
      {telegram && <TelegramSignIn bot={telegram.bot} signup={signup} />}
      {wallet && (
        <Suspense fallback={null}>
          <WalletSignIn wallets={wallets} chainId={wallet.chainId} signup={signup} />
        </Suspense>
      )}
      {(config.google || telegram || wallet) && <OrDivider />}
    </div>
  );
}

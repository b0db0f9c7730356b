import { Wallet } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { useProviderWords } from '../hooks/use-provider-words';
import type { InjectedWallet } from '../hooks/use-wallet-providers';
import { useWalletSignIn } from '../hooks/use-wallet-sign-in';
import { WalletError } from './wallet-error';
import { WalletReviewDialog } from './wallet-review-dialog';

/**
 * "Sign in with wallet", one button per injected wallet: the wallet shares an account, the server
 * writes the Sign-In with Ethereum message for it, the person reads it here and only then is the wallet
 * asked to sign it (decision 0184).
 */
export function WalletSignIn({
  wallets,
  chainId,
  signup,
}: {
  wallets: InjectedWallet[];
  chainId: number;
  signup: boolean;
}) {
  const words = useProviderWords();
  const { review, busy, error, connect, sign, close } = useWalletSignIn(chainId);
  const label = (name: string) =>
    name
      ? words(signup ? 'signup.walletNamed' : 'login.walletNamed', { name })
      : words(signup ? 'signup.wallet' : 'login.wallet');
  return (
    <>
      {wallets.map((wallet) => (
        <Button
          key={wallet.id}
          variant="outline"
          size="lg"
          onClick={() => void connect(wallet)}
          disabled={busy !== null}
          data-testid="wallet-signin"
        >
          {busy === 'connecting' ? (
            <Spinner className="size-4" />
          ) : wallet.icon ? (
            <img src={wallet.icon} alt="" className="size-5" />
          ) : (
            <Wallet className="size-4" aria-hidden="true" />
          )}
          {label(wallet.name)}
        </Button>
      ))}
      {error && !review && <WalletError failure={error.failure} />}
      <WalletReviewDialog
        review={review}
        busy={busy}
        error={error}
        onSign={(current) => void sign(current)}
        onClose={close}
      />
    </>
  );
}

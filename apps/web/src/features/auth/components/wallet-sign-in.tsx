import { Wallet } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { requestErrorText } from '../../../lib/error-text';
import { useI18n } from '../../../lib/i18n';
import { walletNonce, walletSignIn } from '../api/provider-sign-in';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';
import { useProviderWords } from '../hooks/use-provider-words';
import type { InjectedWallet } from '../hooks/use-wallet-providers';
import { WalletRefusal, personalSign, requestAccount } from '../utils/eip1193';

/** What the person reviews before their wallet is asked to sign: the server's SIWE message. */
interface Review {
  wallet: InjectedWallet;
  address: string;
  nonce: string;
  message: string;
}

/** The person's refusal, the wallet's failure in its words, or the server's refusal in the page's language. */
function ErrorLine({ failure }: { failure: unknown }) {
  const { language } = useI18n();
  const words = useProviderWords();
  const text = !(failure instanceof WalletRefusal)
    ? requestErrorText(language, failure)
    : failure.kind === 'rejected'
      ? words('wallet.rejected')
      : words('wallet.failed', { message: failure.message });
  return (
    <p role="alert" data-testid="wallet-error" className="text-left text-sm text-rose-600 dark:text-rose-400">
      {text}
    </p>
  );
}

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
  const { t } = useI18n();
  const words = useProviderWords();
  const complete = useCompleteSignIn();
  const [review, setReview] = useState<Review | null>(null);
  const [busy, setBusy] = useState<'connecting' | 'signing' | null>(null);
  const [error, setError] = useState<{ failure: unknown } | null>(null);

  async function connect(wallet: InjectedWallet) {
    setBusy('connecting');
    setError(null);
    try {
      const address = await requestAccount(wallet.provider);
      const { nonce, message } = await walletNonce(address);
      if (!message) throw new WalletRefusal('failed', 'This server wrote no message to sign.');
      setReview({ wallet, address, nonce, message });
    } catch (failure) {
      setError({ failure });
    } finally {
      setBusy(null);
    }
  }

  async function sign(current: Review) {
    setBusy('signing');
    setError(null);
    try {
      const signature = await personalSign(current.wallet.provider, current.message, current.address);
      const session = await walletSignIn({
        nonce: current.nonce,
        signature,
        chainType: 'evm',
        networkID: chainId,
        walletProvider: current.wallet.name,
        signingData: current.message,
      });
      setReview(null);
      complete(session);
    } catch (failure) {
      setError({ failure });
      setBusy(null);
    }
  }

  const close = () => {
    setReview(null);
    setError(null);
    setBusy(null);
  };
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
      {error && !review && <ErrorLine failure={error.failure} />}
      <Dialog
        open={review !== null}
        onClose={close}
        title={words('wallet.reviewTitle')}
        description={words('wallet.reviewDescription')}
        closeLabel={t('common.close')}
        testId="wallet-review"
        footer={
          <>
            <Button variant="ghost" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button
              onClick={() => review && void sign(review)}
              disabled={busy === 'signing'}
              data-testid="wallet-sign"
            >
              {busy === 'signing' && <Spinner className="size-4" />}
              {busy === 'signing' ? words('wallet.confirmInWallet') : words('wallet.sign')}
            </Button>
          </>
        }
      >
        <pre
          data-testid="siwe-message"
          className="max-h-64 overflow-auto rounded-xl bg-slate-100 p-3 text-left font-mono text-xs break-all whitespace-pre-wrap text-slate-800 dark:bg-slate-800 dark:text-slate-100"
        >
          {review?.message}
        </pre>
        {error && review && (
          <div className="mt-3">
            <ErrorLine failure={error.failure} />
          </div>
        )}
      </Dialog>
    </>
  );
}

import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';
import { Spinner } from '#web/components/ui/spinner';
import { useI18n } from '#web/lib/i18n';
import { useProviderWords } from '../hooks/use-provider-words';
import type { WalletReview, WalletStep } from '../hooks/use-wallet-sign-in';
import { WalletError } from './wallet-error';

/** The server's Sign-In with Ethereum message, shown to the person before their wallet is asked to sign it. */
export function WalletReviewDialog({
  review,
  busy,
  error,
  onSign,
  onClose,
}: {
  review: WalletReview | null;
  busy: WalletStep | null;
  error: { failure: unknown } | null;
  onSign: (review: WalletReview) => void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const words = useProviderWords();
  return (
    <Dialog
      open={review !== null}
      onClose={onClose}
      title={words('wallet.reviewTitle')}
      description={words('wallet.reviewDescription')}
      closeLabel={t('common.close')}
      testId="wallet-review"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            onClick={() => review && onSign(review)}
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
          <WalletError failure={error.failure} />
        </div>
      )}
    </Dialog>
  );
}

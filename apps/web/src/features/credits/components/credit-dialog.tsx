import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';
import { useI18n } from '#web/lib/i18n';
import { useBalanceRefresh } from '../hooks/use-balance-refresh';
import { usePurchase } from '../hooks/use-purchase';
import { BalanceSummary } from './balance-summary';
import { CreditPackages } from './credit-packages';

export interface CreditDialogProps {
  open: boolean;
  onClose: () => void;
  token: string;
  /** The clock of the 'Replenishes in …' hint (tests move it across the hours). */
  now?: () => number;
  /** window.open, injectable for tests. */
  openWindow?: typeof window.open;
}

/**
 * Credit Balance (docs/product.md#dialogs): 'You have N credits.', a refresh button that spins while
 * loading, the 'Replenishes in …' hint below 1,000, 'Buy more credits:' with the three packages, Close.
 * The body mounts on every open, so the balance is fetched on each open, which includes the next open
 * after a purchase attempt. Failures are logged only, but for a server that sells no credits, which
 * says so under the packages.
 */
export function CreditDialog(props: CreditDialogProps) {
  const { t } = useI18n();
  if (!props.open) return null;
  return (
    <Dialog
      open
      onClose={props.onClose}
      title={t('credits.title')}
      closeLabel={t('common.close')}
      testId="credit-dialog"
      footer={
        <Button variant="secondary" onClick={props.onClose} data-testid="credit-close">
          {t('common.close')}
        </Button>
      }
    >
      <CreditDialogBody {...props} />
    </Dialog>
  );
}

function CreditDialogBody({ token, now = Date.now, openWindow }: CreditDialogProps) {
  const { loading, refresh } = useBalanceRefresh(token);
  const { t } = useI18n();
  const { purchasing, buy, unavailable } = usePurchase(token, openWindow);
  return (
    <div className="flex flex-col gap-5">
      <BalanceSummary loading={loading} onRefresh={refresh} now={now} />
      <CreditPackages purchasing={purchasing} onBuy={(credits) => void buy(credits)} />
      {unavailable && (
        <p
          role="alert"
          data-testid="purchases-unavailable"
          className="text-sm text-rose-700 dark:text-rose-300"
        >
          {t('errors.http.purchases_unavailable')}
        </p>
      )}
    </div>
  );
}

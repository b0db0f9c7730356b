import { requestErrorText } from '#web/lib/error-text';
import { useI18n } from '#web/lib/i18n';
import { useProviderWords } from '../hooks/use-provider-words';
import { WalletRefusal } from '../utils/eip1193';
import { FormAlert } from './form-alert';

/** The person's refusal, the wallet's failure in its words, or the server's refusal in the page's language. */
export function WalletError({ failure }: { failure: unknown }) {
  const { language } = useI18n();
  const words = useProviderWords();
  const text = !(failure instanceof WalletRefusal)
    ? requestErrorText(language, failure)
    : failure.kind === 'rejected'
      ? words('wallet.rejected')
      : words('wallet.failed', { message: failure.message });
  return <FormAlert testId="wallet-error">{text}</FormAlert>;
}

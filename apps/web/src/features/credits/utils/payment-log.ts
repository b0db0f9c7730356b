import { getLanguage, translate } from '#web/lib/i18n';

interface PaymentStatusFailure {
  name: 'PaymentStatusError';
  status: number;
  code: string;
  error: string;
}

const isPaymentStatusFailure = (error: unknown): error is PaymentStatusFailure =>
  error instanceof Error && error.name === 'PaymentStatusError';

/**
 * Balance and purchase failures are logged only, never shown. A payment call answered with a
 * non-success status is logged in the catalogue's words (interface language), with its code and status. The class is matched
 * by name so the wallet calls stay out of the first load.
 */
export function logPaymentFailure(what: string, error: unknown): void {
  if (isPaymentStatusFailure(error)) {
    const text = translate(getLanguage(), 'credits.nonSuccess', { error: error.error });
    console.error(`[credits] ${what}: ${text}`, { code: error.code, status: error.status });
  } else {
    console.error(`[credits] ${what}`, error);
  }
}

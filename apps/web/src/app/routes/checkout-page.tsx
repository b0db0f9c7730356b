import { CenteredCard } from '../../components/ui/card';
import { CheckoutResult } from '../../features/credits/components/checkout-result';
import { useAuthSession } from '../../lib/auth-session';
import { useSearchParams } from '../../lib/router';

/** /checkout?status=: the payment window's landing page, true to what the server says of the order. */
export function CheckoutPage() {
  const [search] = useSearchParams();
  const session = useAuthSession();
  return (
    <CenteredCard testId="checkout">
      <CheckoutResult status={search.get('status')} orderId={search.get('orderId')} token={session?.token} />
    </CenteredCard>
  );
}

import { CenteredCard } from '#web/components/ui/card';
import { CheckoutResult } from '#web/features/credits/components/checkout-result';
import { useAuthSession } from '#web/lib/auth-session';
import { useSearchParams } from '#web/lib/router';

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

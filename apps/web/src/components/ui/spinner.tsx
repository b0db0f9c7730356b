import { LoaderCircle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from '#web/lib/cn';

export function Spinner({ className }: { className?: string }) {
  return <LoaderCircle aria-hidden="true" className={cn('size-5 animate-spin', className)} />;
}

/** How long a wait may last before a spinner turns: a wait under a second needs no motion. */
export const SPINNER_DELAY_MS = 1000;

/**
 * A spinner that turns only once the wait has lasted `SPINNER_DELAY_MS`, holding its place until then.
 * Most waits (a lazy screen's code, a connection) end well within a second; a spinner that appears and is
 * gone again is noise, and each of its frames is drawn while the next screen loads (docs/decisions/0086).
 */
export function DelayedSpinner({ className }: { className?: string }) {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), SPINNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return slow ? (
    <Spinner className={className} />
  ) : (
    <span aria-hidden="true" data-testid="spinner-placeholder" className={cn('size-5', className)} />
  );
}

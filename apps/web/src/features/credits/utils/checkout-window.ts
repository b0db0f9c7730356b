/*
 * The checkout opens in a new window. The order's address is only known after a request,
 * and browsers (Safari above all) block a window opened after an `await`, so the window is opened empty
 * inside the click and pointed at the checkout once the order exists, or closed if there is none.
 */

export interface PendingWindow {
  /** Show the checkout in the window opened for it. */
  go(url: string): void;
  /** No order came: close the empty window. */
  cancel(): void;
}

export function openPendingWindow(
  open: typeof window.open = (...args) => window.open(...args),
): PendingWindow {
  let opened: Window | null = null;
  try {
    opened = open('', '_blank');
  } catch (error) {
    console.warn('[credits] could not open the checkout window', error);
  }
  // The checkout is another site's page (Stripe): it gets no handle back on this one.
  if (opened) opened.opener = null;
  return {
    go(url) {
      if (opened && !opened.closed) opened.location.href = url;
      // Blocked anyway: one more try now that the address is known.
      else open(url, '_blank', 'noopener');
    },
    cancel() {
      if (opened && !opened.closed) opened.close();
    },
  };
}

/**
 * The server's own TEST MODE checkout (same origin) is told the interface language, so it speaks it too;
 * a provider's page (Stripe, another origin) is left exactly as the server gave it.
 */
export function checkoutAddress(url: string, language: string, origin = window.location.origin): string {
  try {
    const address = new URL(url, origin);
    if (address.origin !== origin) return url;
    address.searchParams.set('lang', language);
    return address.toString();
  } catch {
    return url;
  }
}

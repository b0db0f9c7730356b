import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StorageKey } from '#web/lib/storage';
import { balanceStore } from '../hooks/use-balance';
import { CheckoutResult } from './checkout-result';

/** The order status answers in turn (the last repeats), and the balance after payment. */
function server(statuses: string[], balance = { free: 40, premium: 1000 }) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      if (url.startsWith('/api/wallet/purchase/status')) {
        const status = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
        return new Response(JSON.stringify({ orderId: 'o1', status }), { status: 200 });
      }
      return new Response(JSON.stringify(balance), { status: 200 });
    }),
  );
  return asked;
}

const result = () => screen.getByTestId('checkout-result');

describe('CheckoutResult', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    balanceStore.reset();
  });

  it('waits for the server to say paid, then shows the new balance and stores it for the room', async () => {
    const asked = server(['pending', 'pending', 'paid']);
    render(<CheckoutResult status="success" orderId="o1" token="tok" pollMs={5} />);
    expect(result().dataset.state).toBe('confirming');
    expect(result().textContent).toContain('Confirming your payment...');
    await waitFor(() => expect(result().textContent).toContain('Your balance is now 1,040 credits.'));
    expect(result().textContent).toContain('Payment Successful!');
    expect(result().textContent).toContain('You can close this window now.');
    expect(asked.filter((url) => url === '/api/wallet/purchase/status?orderId=o1')).toHaveLength(3);
    expect(JSON.parse(localStorage.getItem(StorageKey.bal)!)).toEqual({ free: 40, premium: 1000 });
  });

  it('believes the server over the address: canceled is canceled', async () => {
    server(['canceled']);
    render(<CheckoutResult status="success" orderId="o1" token="tok" pollMs={5} />);
    await waitFor(() => expect(result().dataset.state).toBe('canceled'));
    expect(result().textContent).toContain('Payment Canceled');
    expect(result().textContent).toContain('No payment was made.');
    expect(localStorage.getItem(StorageKey.bal)).toBeNull();
  });

  it('says the payment is still being confirmed when the order stays pending', async () => {
    server(['pending']);
    render(<CheckoutResult status="success" orderId="o1" token="tok" pollMs={5} pollLimit={3} />);
    await waitFor(() => expect(result().dataset.state).toBe('pending'));
    expect(result().textContent).toContain('Your payment is still being confirmed.');
  });

  it('without an order or a session, shows what the payment page said', () => {
    const asked = server(['paid']);
    const { unmount } = render(<CheckoutResult status="success" orderId={null} token="tok" />);
    expect(result().textContent).toContain('Payment Successful!');
    expect(result().textContent).toContain('Your balance will be updated shortly.');
    unmount();
    render(<CheckoutResult status="canceled" orderId="o1" token={undefined} />);
    expect(result().textContent).toContain('Payment Canceled');
    expect(asked).toEqual([]);
  });
});

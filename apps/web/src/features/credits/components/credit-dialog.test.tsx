import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '#web/lib/i18n';
import { StorageKey } from '#web/lib/storage';
import { balanceStore } from '../hooks/use-balance';
import { CreditDialog } from './credit-dialog';

/** Tokyo wall-clock time (UTC+9). */
const tokyo = (h: number, min = 0) => Date.UTC(2026, 10, 23, h - 9, min);

interface Wallet {
  balance: { free: number; premium: number };
  /** Resolves the pending purchase request when called. */
  releasePurchase?: () => void;
  purchaseFails?: boolean;
  /** The server sells no credits (no Stripe, TEST_CHECKOUT off). */
  purchasesUnavailable?: boolean;
}

/** The wallet API as a fetch stub: GET balance answers the current balance, POST purchase an order. */
function wallet(state: Wallet) {
  const calls: { method: string; url: string; body?: unknown }[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (method === 'GET' && url.startsWith('/api/wallet/balance'))
      return new Response(JSON.stringify(state.balance), { status: 200 });
    if (method === 'POST' && url === '/api/wallet/purchase') {
      await new Promise<void>((resolve) => (state.releasePurchase = resolve));
      if (state.purchasesUnavailable) {
        const message = 'Purchases are not available on this server.';
        return new Response(
          JSON.stringify({
            statusCode: 503,
            error: 'Service Unavailable',
            message,
            code: 'purchases_unavailable',
          }),
          { status: 503 },
        );
      }
      if (state.purchaseFails)
        return new Response(JSON.stringify({ statusCode: 500, error: 'x', message: 'down' }), {
          status: 500,
        });
      return new Response(JSON.stringify({ orderId: 'o1', checkoutURL: 'https://pay.example/o1' }), {
        status: 200,
      });
    }
    return new Response('{}', { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  const balanceGets = () => calls.filter((c) => c.url.startsWith('/api/wallet/balance')).length;
  return { calls, balanceGets };
}

/** A window.open stub: the empty window the dialog opens inside the click, then points at the checkout. */
function fakeWindow() {
  const opened = { opener: {} as unknown, closed: false, location: { href: '' }, close: vi.fn() };
  opened.close.mockImplementation(() => {
    opened.closed = true;
  });
  const open = vi.fn(() => opened as unknown as Window);
  return { open, opened };
}

function Harness({ now, openWindow }: { now: () => number; openWindow: typeof window.open }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" data-testid="reopen" onClick={() => setOpen(true)} />
      <CreditDialog
        open={open}
        onClose={() => setOpen(false)}
        token="tok"
        now={now}
        openWindow={openWindow}
      />
    </>
  );
}

const balanceText = () => screen.getByTestId('credit-balance').textContent;
const packages = () => screen.getAllByTestId('credit-package') as HTMLButtonElement[];

describe('CreditDialog', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    balanceStore.reset();
    act(() => setLanguage('en'));
  });

  it('fetches the balance on open and shows it with the three packages', async () => {
    const { calls } = wallet({ balance: { free: 400, premium: 1000 } });
    render(<Harness now={() => tokyo(12)} openWindow={fakeWindow().open} />);
    expect(screen.getByTestId('credit-dialog').textContent).toContain('Credit Balance');
    await waitFor(() => expect(balanceText()).toBe('You have 1,400 credits.'));
    expect(calls[0]).toMatchObject({ method: 'GET', url: '/api/wallet/balance?currency=t_free' });
    // 1,400: no replenish hint, the number in green
    expect(screen.queryByTestId('credit-replenish')).toBeNull();
    expect(screen.getByTestId('credit-balance').querySelector('strong')!.className).toContain('emerald');
    expect(screen.getByText('Buy more credits:')).toBeTruthy();
    expect(packages().map((b) => [b.dataset.credits, b.getAttribute('aria-label')])).toEqual([
      ['1000', 'Buy 1,000 credits for ¥149'],
      ['5000', 'Buy 5,000 credits for ¥499'],
      ['20000', 'Buy 20,000 credits for ¥1,499'],
    ]);
    expect(JSON.parse(localStorage.getItem(StorageKey.bal)!)).toEqual({ free: 400, premium: 1000 });
  });

  it('spins the refresh button while loading and fetches again when pressed', async () => {
    const state: Wallet = { balance: { free: 300, premium: 0 } };
    const { balanceGets } = wallet(state);
    render(<Harness now={() => tokyo(12)} openWindow={fakeWindow().open} />);
    const refresh = screen.getByTestId('credit-refresh');
    expect(refresh.querySelector('svg')!.getAttribute('class')).toContain('animate-spin');
    await waitFor(() => expect(balanceText()).toBe('You have 300 credits.'));
    expect(refresh.querySelector('svg')!.getAttribute('class')).not.toContain('animate-spin');
    state.balance = { free: 250, premium: 0 };
    fireEvent.click(refresh);
    expect(refresh.querySelector('svg')!.getAttribute('class')).toContain('animate-spin');
    await waitFor(() => expect(balanceText()).toBe('You have 250 credits.'));
    expect(balanceGets()).toBe(2);
  });

  it.each([
    [tokyo(23, 20), 'Replenishes in less than an hour, at the end of the day (Tokyo time).'],
    [tokyo(22, 45), 'Replenishes in ~1 hour, at the end of the day (Tokyo time).'],
    [tokyo(17, 10), 'Replenishes in about 7 hours, at the end of the day (Tokyo time).'],
  ])('below 1,000 says when the credits replenish (%#)', async (now, hint) => {
    wallet({ balance: { free: 999, premium: 0 } });
    render(<Harness now={() => now} openWindow={fakeWindow().open} />);
    await waitFor(() => expect(screen.getByTestId('credit-replenish').textContent).toBe(hint));
  });

  it('speaks Japanese', async () => {
    act(() => setLanguage('ja'));
    wallet({ balance: { free: 120, premium: 0 } });
    render(<Harness now={() => tokyo(19, 0)} openWindow={fakeWindow().open} />);
    await waitFor(() => expect(balanceText()).toBe('残高は 120 クレジットです。'));
    expect(screen.getByTestId('credit-dialog').textContent).toContain('クレジット残高');
    expect(screen.getByTestId('credit-replenish').textContent).toBe(
      '約5時間後（東京時間の0時）に補充されます。',
    );
    expect(screen.getByTestId('credit-balance').querySelector('strong')!.className).toContain('rose');
  });

  it('disables the packages while a purchase starts, opens the checkout in a new window, refetches on the next open', async () => {
    const state: Wallet = { balance: { free: 100, premium: 0 } };
    const { calls, balanceGets } = wallet(state);
    const { open, opened } = fakeWindow();
    render(<Harness now={() => tokyo(12)} openWindow={open} />);
    await waitFor(() => expect(balanceText()).toBe('You have 100 credits.'));

    fireEvent.click(packages()[0]!);
    // the window opens inside the click (popup blockers), empty until the order exists
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(opened.opener).toBeNull();
    expect(packages().every((b) => b.disabled)).toBe(true);
    // a second click while the first is under way starts nothing
    fireEvent.click(packages()[1]!);
    await waitFor(() => expect(state.releasePurchase).toBeTypeOf('function'));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', url: '/api/wallet/purchase', body: { currency: 't_free', amount: 1000 } },
    ]);
    act(() => state.releasePurchase!());
    await waitFor(() => expect(opened.location.href).toBe('https://pay.example/o1'));
    await waitFor(() => expect(packages().some((b) => b.disabled)).toBe(false));
    expect(open).toHaveBeenCalledTimes(1);

    // paid in the other window; the next open asks the server again and shows the new balance
    fireEvent.click(screen.getByTestId('credit-close'));
    expect(screen.queryByTestId('credit-dialog')).toBeNull();
    state.balance = { free: 100, premium: 1000 };
    fireEvent.click(screen.getByTestId('reopen'));
    await waitFor(() => expect(balanceText()).toBe('You have 1,100 credits.'));
    expect(balanceGets()).toBe(2);
  });

  it('logs a failed purchase only (non success status), closing the empty window', async () => {
    const state: Wallet = { balance: { free: 100, premium: 0 }, purchaseFails: true };
    wallet(state);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    const { open, opened } = fakeWindow();
    render(<Harness now={() => tokyo(12)} openWindow={open} />);
    await waitFor(() => expect(balanceText()).toBe('You have 100 credits.'));
    fireEvent.click(packages()[2]!);
    await waitFor(() => expect(state.releasePurchase).toBeTypeOf('function'));
    act(() => state.releasePurchase!());
    // a payment answer above 201 is logged in the catalogue's words with code and status
    await waitFor(() =>
      expect(logged).toHaveBeenCalledWith(
        '[credits] purchase failed: API returned a non success status code: down',
        { code: 'internal', status: 500 },
      ),
    );
    expect(opened.close).toHaveBeenCalled();
    expect(opened.location.href).toBe('');
    expect(alert).not.toHaveBeenCalled();
    expect(packages().every((b) => !b.disabled)).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.each([
    ['en', 'Purchases are not available on this server.'],
    ['ja', 'このサーバーではクレジットを購入できません。'],
  ] as const)('says plainly when the server sells no credits (%s)', async (language, text) => {
    act(() => setLanguage(language));
    const state: Wallet = { balance: { free: 100, premium: 0 }, purchasesUnavailable: true };
    wallet(state);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { open, opened } = fakeWindow();
    render(<Harness now={() => tokyo(12)} openWindow={open} />);
    await waitFor(() => expect(packages()).toHaveLength(3));
    expect(screen.queryByTestId('purchases-unavailable')).toBeNull();
    fireEvent.click(packages()[0]!);
    await waitFor(() => expect(state.releasePurchase).toBeTypeOf('function'));
    act(() => state.releasePurchase!());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(text));
    expect(opened.close).toHaveBeenCalled();
  });
});

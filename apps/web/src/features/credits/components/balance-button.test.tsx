import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '#web/lib/i18n';
import { StorageKey } from '#web/lib/storage';
import { balanceStore } from '../hooks/use-balance';
import { BalanceButton } from './balance-button';

function serverBalance(balance: { free: number; premium: number }) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(balance), { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const button = () => screen.getByTestId('balance-button');

describe('BalanceButton', () => {
  // the store is module state, shared with the files before this one in the worker (vitest.config.ts)
  beforeEach(() => balanceStore.reset());
  afterEach(() => {
    vi.unstubAllGlobals();
    balanceStore.reset();
    act(() => setLanguage('en'));
  });

  it('shows the stored balance at once, then the server’s, coloured by its size', async () => {
    localStorage.setItem(StorageKey.bal, JSON.stringify({ free: 100, premium: 50 }));
    const fetchMock = serverBalance({ free: 1000, premium: 250 });
    render(<BalanceButton token="tok" />);
    expect(button().textContent).toBe('150');
    expect(button().dataset.tone).toBe('red');
    await waitFor(() => expect(button().textContent).toBe('1,250'));
    expect(button().dataset.tone).toBe('green');
    expect(button().className).toContain('emerald');
    expect(button().getAttribute('aria-label')).toBe('Credit balance: 1,250 credits');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('follows the live balance (system BALANCE) through the thresholds', async () => {
    serverBalance({ free: 800, premium: 0 });
    render(<BalanceButton token="tok" />);
    await waitFor(() => expect(button().dataset.tone).toBe('green'));
    const tones: Array<[number, string | undefined]> = [];
    for (const free of [701, 700, 250, 249, 0]) {
      act(() => balanceStore.set({ free, premium: 0 }));
      tones.push([free, button().dataset.tone]);
    }
    expect(tones).toEqual([
      [701, 'green'],
      [700, 'orange'],
      [250, 'orange'],
      [249, 'red'],
      [0, 'red'],
    ]);
    expect(JSON.parse(localStorage.getItem(StorageKey.bal)!)).toEqual({ free: 0, premium: 0 });
  });

  it('takes the balance another tab (the checkout window) wrote to storage', async () => {
    serverBalance({ free: 100, premium: 0 });
    render(<BalanceButton token="tok" />);
    await waitFor(() => expect(button().textContent).toBe('100'));
    const paid = JSON.stringify({ free: 100, premium: 1000 });
    localStorage.setItem(StorageKey.bal, paid);
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: StorageKey.bal, newValue: paid }));
    });
    expect(button().textContent).toBe('1,100');
  });

  it('opens Credit Balance', async () => {
    serverBalance({ free: 300, premium: 0 });
    render(<BalanceButton token="tok" />);
    fireEvent.click(button());
    // the dialog's module loads on this first opening (decision 0084): on a busy machine that can take a while
    await screen.findByTestId('credit-balance', {}, { timeout: 10_000 });
    await waitFor(() =>
      expect(screen.getByTestId('credit-balance').textContent).toBe('You have 300 credits.'),
    );
  });
});

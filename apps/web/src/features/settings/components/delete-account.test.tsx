import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '#web/lib/i18n';
import { DeleteAccount } from './delete-account';

/** Answers the balance, then each deletion call with the next of `deletions`. */
function server(premium: number, deletions: { status: number; body: unknown }[]) {
  const calls: { method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (String(url).includes('/api/wallet/balance')) {
        return new Response(JSON.stringify({ free: 3, premium }), { status: 200 });
      }
      calls.push({
        method: String(init.method),
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      });
      const answer = deletions.shift()!;
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return calls;
}

function setup() {
  const onDeleted = vi.fn();
  render(<DeleteAccount token="tok" onCancel={vi.fn()} onDeleted={onDeleted} />);
  const word = screen.getByTestId('delete-confirm-word') as HTMLInputElement;
  const confirm = screen.getByTestId('delete-account-confirm') as HTMLButtonElement;
  return { onDeleted, word, confirm };
}

describe('DeleteAccount', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    act(() => setLanguage('en'));
  });

  it('names the bought credits that are lost and deletes only once the word is typed', async () => {
    const calls = server(120, [{ status: 200, body: { deleted: true, unspentPaidCredits: 120 } }]);
    const { onDeleted, word, confirm } = setup();
    expect((await screen.findByTestId('delete-paid-credits')).textContent).toContain('120');
    expect(confirm.disabled).toBe(true);
    fireEvent.change(word, { target: { value: 'delete me' } });
    expect(confirm.disabled).toBe(true);
    fireEvent.change(word, { target: { value: 'DELETE' } });
    fireEvent.click(confirm);
    await waitFor(() => expect(onDeleted).toHaveBeenCalled());
    expect(calls).toEqual([{ method: 'DELETE', body: {} }]);
  });

  it('asks for the password when the sign-in is not fresh, in Japanese with 削除', async () => {
    act(() => setLanguage('ja'));
    const calls = server(0, [
      {
        status: 403,
        body: { statusCode: 403, error: 'Forbidden', message: 'x', code: 'fresh_sign_in_required' },
      },
      { status: 200, body: { deleted: true, unspentPaidCredits: 0 } },
    ]);
    const { onDeleted, word, confirm } = setup();
    expect(screen.getByText('確認のため「削除」と入力してください')).toBeTruthy();
    fireEvent.change(word, { target: { value: '削除' } });
    fireEvent.click(confirm);
    expect((await screen.findByRole('alert')).textContent).toContain('もう一度ログイン');
    expect(onDeleted).not.toHaveBeenCalled();
    const password = screen.getByTestId('delete-password') as HTMLInputElement;
    fireEvent.change(password, { target: { value: 'their-own-password' } });
    fireEvent.click(confirm);
    await waitFor(() => expect(onDeleted).toHaveBeenCalled());
    expect(calls[1]).toEqual({ method: 'DELETE', body: { password: 'their-own-password' } });
    expect(screen.queryByTestId('delete-paid-credits')).toBeNull();
  });
});

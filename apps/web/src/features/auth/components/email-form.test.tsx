import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Routes } from '#web/lib/router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '#web/lib/auth-session';
import { setLanguage } from '#web/lib/i18n';
import { testUser } from '#web/test/fixtures';
import { forgetAuthConfig } from '../hooks/use-auth-config';
import { EmailForm } from './email-form';

/* The email form of /login and /signup: what it sends, what it shows. */

type Call = { url: string; init: RequestInit };

function server(answers: Record<string, { status: number; body: unknown }>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      // the form asks the sign-in configuration on its own; the tests look at what the person sends
      if (url !== '/api/auth/config') calls.push({ url, init });
      const answer = answers[url] ?? {
        status: 404,
        body: { statusCode: 404, error: 'Not Found', message: 'no' },
      };
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return calls;
}

function fill(email: string, password?: string) {
  fireEvent.change(screen.getByTestId('email-address'), { target: { value: email } });
  if (password !== undefined)
    fireEvent.change(screen.getByTestId('email-password'), { target: { value: password } });
  fireEvent.click(screen.getByTestId('email-submit'));
}

describe('email form', () => {
  beforeEach(() => {
    localStorage.clear();
    authStore.reset();
    setLanguage('en');
    forgetAuthConfig();
  });
  afterEach(() => vi.unstubAllGlobals());

  function renderForm(mode: 'login' | 'register') {
    render(
      <MemoryRouter initialEntries={['/signup']}>
        <Routes routes={[{ path: '/signup', element: <EmailForm initialMode={mode} /> }]} />
      </MemoryRouter>,
    );
  }

  it('says before anything is typed that a server without mail cannot send the confirmation', async () => {
    server({ '/api/auth/config': { status: 200, body: { google: false, mail: false } } });
    renderForm('register');
    expect((await screen.findByTestId('email-no-mail')).textContent).toMatch(/sends no mail/);
  });

  it('says nothing about mail when the server sends it', async () => {
    server({ '/api/auth/config': { status: 200, body: { google: false, mail: true } } });
    renderForm('register');
    await waitFor(() => expect(fetch).toHaveBeenCalledWith('/api/auth/config', expect.anything()));
    await act(async () => {}); // the answer is applied
    expect(screen.queryByTestId('email-no-mail')).toBeNull();
  });

  it('signs in, sending the guest token along so the guest keeps their player', async () => {
    const guest = testUser({ provider: 'guest', expiresAt: Math.floor(Date.now() / 1000) + 600 });
    authStore.set({ token: 'guest-token', user: guest });
    const member = { ...guest, provider: 'ggl' as const, userId: 'member-1' };
    const calls = server({
      '/api/auth/email/login': { status: 200, body: { token: 'member-token', user: member } },
    });
    render(
      <MemoryRouter initialEntries={['/login']}>
        <Routes
          routes={[
            { path: '/login', element: <EmailForm initialMode="login" /> },
            { path: '/translate', element: <p>room</p> },
          ]}
        />
      </MemoryRouter>,
    );
    fill('ada@example.com', 'correct horse');
    await screen.findByText('room');
    expect(calls[0]!.init.headers).toMatchObject({ Authorization: 'Bearer guest-token' });
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({
      email: 'ada@example.com',
      password: 'correct horse',
    });
    expect(authStore.get()?.token).toBe('member-token');
  });

  it("words the server's refusal by its code, in the page's language, and stays", async () => {
    server({
      '/api/auth/email/login': {
        status: 401,
        body: {
          statusCode: 401,
          error: 'Unauthorized',
          message: 'The email or the password is wrong.',
          code: 'wrong_credentials',
        },
      },
      '/api/auth/email/register': {
        status: 400,
        body: {
          statusCode: 400,
          error: 'Bad Request',
          message: 'password: Passwords have at least 8 characters.',
          code: 'password_too_short',
        },
      },
    });
    setLanguage('ja');
    const { unmount } = render(
      <MemoryRouter>
        <EmailForm initialMode="login" />
      </MemoryRouter>,
    );
    fill('ada@example.com', 'nope-nope');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('メールアドレスまたはパスワードが違います。');
    expect(authStore.get()).toBeUndefined();
    // switching the language rewords the shown refusal
    act(() => setLanguage('en'));
    expect(alert.textContent).toBe('The email or the password is wrong.');
    unmount();

    render(
      <MemoryRouter>
        <EmailForm initialMode="register" />
      </MemoryRouter>,
    );
    fill('ada@example.com', 'short-ish');
    expect((await screen.findByRole('alert')).textContent).toBe('Passwords need at least 8 characters.');
  });

  it('registers, says to check the mail, and offers a resend; forgot asks only for the address', async () => {
    const sent = { status: 202, body: { ok: true, message: 'sent' } };
    const calls = server({
      '/api/auth/email/register': sent,
      '/api/auth/email/resend': sent,
      '/api/auth/email/forgot': sent,
    });
    const { unmount } = render(
      <MemoryRouter>
        <EmailForm initialMode="register" />
      </MemoryRouter>,
    );
    fill('new@example.com', 'long-enough');
    await screen.findByText(/Check your mail/);
    fireEvent.click(screen.getByTestId('email-resend'));
    await waitFor(() => expect(calls.map((call) => call.url)).toContain('/api/auth/email/resend'));
    unmount();

    render(
      <MemoryRouter>
        <EmailForm initialMode="login" />
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByTestId('email-forgot'));
    expect(screen.queryByTestId('email-password')).toBeNull();
    fill('new@example.com');
    await screen.findByText(/reset link is on its way/);
    expect(JSON.parse(String(calls.at(-1)!.init.body))).toEqual({ email: 'new@example.com' });
  });
});

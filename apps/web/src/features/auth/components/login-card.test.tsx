import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from '#web/lib/router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetAuthConfig } from '../hooks/use-auth-config';
import { LoginCard, SignupCard } from './login-card';

function configured(config: object) {
  forgetAuthConfig();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(config), { status: 200 })),
  );
}

// the providers' code is a chunk of its own, slow to load the first time on a busy machine
const LOADED = { timeout: 15_000 };

const ready = () =>
  waitFor(
    () => expect(screen.getByTestId('sign-in-providers').getAttribute('data-state')).toBe('ready'),
    LOADED,
  );

describe('sign-in buttons', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    delete (window as { ethereum?: unknown }).ethereum;
  });

  it('offer Google and Telegram when the server has them configured', async () => {
    configured({ google: true, mail: true, email: true, telegram: { bot: 'xtalk_bot' }, wallet: false });
    render(
      <MemoryRouter>
        <LoginCard />
      </MemoryRouter>,
    );
    const button = (await screen.findByTestId('google-signin', {}, LOADED)) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(button.textContent).toContain('Sign in with Google');
    expect((await screen.findByTestId('telegram-signin')).textContent).toContain('Sign in with Telegram');
  });

  it('show neither, nor the wallet without an injected wallet, on /login and /signup', async () => {
    for (const Card of [LoginCard, SignupCard]) {
      configured({
        google: false,
        mail: false,
        email: true,
        telegram: false,
        wallet: { chainId: 1, domain: 'x' },
      });
      const { unmount } = render(
        <MemoryRouter>
          <Card />
        </MemoryRouter>,
      );
      await ready();
      await screen.findByTestId('email-form');
      expect(screen.queryByTestId('google-signin')).toBeNull();
      expect(screen.queryByTestId('telegram-signin')).toBeNull();
      expect(screen.queryByTestId('wallet-signin')).toBeNull();
      unmount();
    }
  });

  it('offer the wallet when one is injected', async () => {
    (window as { ethereum?: unknown }).ethereum = { request: async () => [] };
    configured({
      google: false,
      mail: false,
      email: true,
      telegram: false,
      wallet: { chainId: 1, domain: 'x' },
    });
    render(
      <MemoryRouter>
        <LoginCard />
      </MemoryRouter>,
    );
    expect((await screen.findByTestId('wallet-signin', {}, LOADED)).textContent).toContain(
      'Sign in with wallet',
    );
  });
});

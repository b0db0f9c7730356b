import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from '../../../lib/router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetAuthConfig } from '../hooks/use-auth-config';
import { LoginCard, SignupCard } from './login-card';

function configured(google: boolean) {
  forgetAuthConfig();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ google }), { status: 200 })),
  );
}

describe('sign-in buttons', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('offer Google when the server has it configured', async () => {
    configured(true);
    render(
      <MemoryRouter>
        <LoginCard />
      </MemoryRouter>,
    );
    const button = screen.getByTestId('google-signin') as HTMLButtonElement;
    await waitFor(() => expect(button.getAttribute('data-state')).toBe('available'));
    expect(button.disabled).toBe(false);
    expect(button.textContent).toContain('Sign in with Google');
    expect(screen.queryByTestId('google-unavailable')).toBeNull();
  });

  it('say clearly when it is not configured, on /login and /signup', async () => {
    for (const Card of [LoginCard, SignupCard]) {
      configured(false);
      const { unmount } = render(
        <MemoryRouter>
          <Card />
        </MemoryRouter>,
      );
      await waitFor(() => screen.getByTestId('google-unavailable'));
      expect((screen.getByTestId('google-signin') as HTMLButtonElement).disabled).toBe(true);
      expect(screen.getByTestId('google-unavailable').textContent).toMatch(/not configured/);
      unmount();
    }
  });
});

import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '#web/lib/auth-session';
import { MemoryRouter } from '#web/lib/router';
import { testUser } from '#web/test/fixtures';
import { Logout } from './logout';

/* /logout ends the session on the server, then forgets it here, even when the server cannot be reached. */

function visit() {
  render(
    <MemoryRouter initialEntries={['/logout']}>
      <Logout />
    </MemoryRouter>,
  );
}

describe('the logout page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    authStore.clear();
  });

  it('ends the session with POST /api/auth/logout and forgets the token', async () => {
    authStore.set({ token: 'tok-1', user: testUser() });
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ ok: true, message: 'Bye.' })));
    vi.stubGlobal('fetch', fetchMock);
    visit();
    expect(screen.getByText('Thank You! Logging Out...')).toBeTruthy();
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/auth/logout',
        expect.objectContaining({
          method: 'POST',
          headers: expect.objectContaining({ Authorization: 'Bearer tok-1' }),
        }),
      ),
    );
    expect(authStore.get()).toBeUndefined();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('forgets the session here when the server refuses or is away', async () => {
    authStore.set({ token: 'tok-2', user: testUser() });
    const fetchMock = vi.fn(async () => new Response('{"statusCode":401}', { status: 401 }));
    vi.stubGlobal('fetch', fetchMock);
    visit();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(authStore.get()).toBeUndefined();
  });
});

import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { generatedDisplayName, type User } from '@xtalk/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '#web/lib/i18n';
import { testUser } from '#web/test/fixtures';
import { ProfileDialog } from './profile-dialog';

const member: User = testUser({
  userId: '5b1e2a9c-user',
  platformPlayerId: 'google-sub',
  provider: 'ggl',
  username: 'hanako',
  displayUsername: 'hanako',
  name: 'Hanako Sato',
  expiresAt: 4_000_000_000,
});
const guest: User = {
  ...member,
  provider: 'guest',
  username: 'g-0123456789ab',
  displayUsername: 'BraveOtter',
};

function setup(user: User = member) {
  const onSaved = vi.fn();
  const onClose = vi.fn();
  const onLogin = vi.fn();
  const onSignedOutEverywhere = vi.fn();
  render(
    <ProfileDialog
      open
      token="tok"
      user={user}
      onSaved={onSaved}
      onClose={onClose}
      onLogin={onLogin}
      onSignedOutEverywhere={onSignedOutEverywhere}
    />,
  );
  const username = screen.getByTestId('profile-username') as HTMLInputElement;
  const fullName = screen.getByTestId('profile-fullname') as HTMLInputElement;
  const save = () => fireEvent.click(screen.getByTestId('profile-save'));
  return { onSaved, onClose, onLogin, onSignedOutEverywhere, username, fullName, save };
}

function respond(status: number, body: unknown) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('ProfileDialog', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    act(() => setLanguage('en'));
  });

  it('shows the read-only user ID, the username and the full name', () => {
    const { username, fullName } = setup();
    expect(screen.getByRole('dialog').textContent).toContain('Profile Settings');
    const id = screen.getByTestId('profile-user-id') as HTMLInputElement;
    expect(id.value).toBe('5b1e2a9c-user');
    expect(id.readOnly).toBe(true);
    expect(username.value).toBe('hanako');
    expect(fullName.value).toBe('Hanako Sato');
  });

  it('is titled 設定 in Japanese', () => {
    act(() => setLanguage('ja'));
    setup();
    expect(screen.getByRole('dialog').textContent).toContain('設定');
    expect(screen.getByTestId('profile-save').textContent).toBe('保存');
  });

  it('is disabled for guests under a login prompt', () => {
    const { username, fullName, onLogin } = setup(guest);
    expect(username.disabled).toBe(true);
    expect(fullName.disabled).toBe(true);
    expect((screen.getByTestId('profile-save') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('profile-login-prompt').textContent).toContain(
      'Login to customize your username and profile.',
    );
    fireEvent.click(screen.getByTestId('profile-login'));
    expect(onLogin).toHaveBeenCalled();
  });

  it('checks the username rules before sending, in the interface language', () => {
    const fetchMock = respond(200, {});
    const { username, save } = setup();
    const cases: [string, string][] = [
      ['ab', 'Username is too short, please try again.'],
      ['g-me', 'Username cannot start with g-'],
      ['_xtalkchan', 'The username you entered is not available or reserved. Please choose a different one.'],
      ['admin', 'The username you entered is not available or reserved. Please choose a different one.'],
      ['two words', 'Usernames may only use letters, numbers, dots, hyphens and underscores.'],
    ];
    const generated = generatedDisplayName('g-x');
    cases.push([
      generated,
      `The username ${generated} is a system generated one. Please choose a different one.`,
    ]);
    for (const [name, message] of cases) {
      fireEvent.change(username, { target: { value: name } });
      save();
      expect(screen.getByTestId('profile-error').textContent, name).toBe(message);
    }
    act(() => setLanguage('ja'));
    fireEvent.change(username, { target: { value: 'g-me' } });
    save();
    expect(screen.getByTestId('profile-error').textContent).toBe('ユーザー名を g- で始めることはできません');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('saves through PATCH /users and hands back the saved user', async () => {
    const saved = { ...member, username: 'hanako_s', displayUsername: 'hanako_s', name: 'Hanako S' };
    const fetchMock = respond(200, { user: saved });
    const { username, fullName, save, onSaved, onClose } = setup();
    fireEvent.change(username, { target: { value: ' hanako_s ' } });
    fireEvent.change(fullName, { target: { value: 'Hanako S' } });
    save();
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(onClose).toHaveBeenCalled();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/users');
    expect(init.method).toBe('PATCH');
    expect(JSON.parse(init.body as string)).toEqual({ name: 'hanako_s', fullName: 'Hanako S' });
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok');
  });

  it('says a taken username at the field, in Japanese too', async () => {
    respond(409, {
      statusCode: 409,
      error: 'Conflict',
      message: 'The given username is taken, please try another one.',
      code: 'ErrUsernameAlreadyTaken',
    });
    act(() => setLanguage('ja'));
    const { username, save, onSaved } = setup();
    fireEvent.change(username, { target: { value: 'kenji' } });
    save();
    await waitFor(() =>
      expect(screen.getByTestId('profile-error').textContent).toBe(
        'このユーザー名は既に使われています。別のユーザー名をお試しください。',
      ),
    );
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('alerts any other failure with the server message, or the generic one', async () => {
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    respond(500, { statusCode: 500, error: 'Internal Server Error', message: 'Database down.' });
    const { save } = setup();
    save();
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Database down.'));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 502 })),
    );
    save();
    await waitFor(() => expect(alert).toHaveBeenCalledTimes(2));
    expect(alert).toHaveBeenLastCalledWith('An error occurred while saving the settings, please try again!');
  });

  it('signs out everywhere through POST /api/auth/logout-all, then signs this device out', async () => {
    const fetchMock = respond(200, { ok: true, message: 'You are signed out everywhere.' });
    const { onSignedOutEverywhere } = setup();
    fireEvent.click(screen.getByTestId('profile-sign-out-everywhere'));
    await waitFor(() => expect(onSignedOutEverywhere).toHaveBeenCalledTimes(1));
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/auth/logout-all',
      expect.objectContaining({
        method: 'POST',
        headers: expect.objectContaining({ Authorization: 'Bearer tok' }),
      }),
    );
  });

  it('says so when it could not sign out everywhere, and keeps this device signed in', async () => {
    respond(503, { statusCode: 503, error: 'Service Unavailable', message: 'Try later.' });
    act(() => setLanguage('ja'));
    const { onSignedOutEverywhere } = setup();
    expect(screen.getByTestId('profile-sign-out-everywhere').textContent).toBe('すべての端末からログアウト');
    fireEvent.click(screen.getByTestId('profile-sign-out-everywhere'));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'すべての端末からのログアウトに失敗しました。接続を確認して、もう一度お試しください。',
      ),
    );
    expect(onSignedOutEverywhere).not.toHaveBeenCalled();
  });

  it('offers no sign out everywhere to a guest', () => {
    setup(guest);
    expect(screen.queryByTestId('profile-sign-out-everywhere')).toBeNull();
  });
});

import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '#web/lib/i18n';
import { StorageKey } from '#web/lib/storage';
import { PastRoomsDialog } from './past-rooms-dialog';

function serverHistory(rooms: { roomId: string; added: number; updated: number }[]) {
  const fetchMock = vi.fn(async (_url: string, init?: RequestInit) =>
    init?.method === 'DELETE'
      ? new Response(null, { status: 204 })
      : new Response(JSON.stringify({ rooms }), { status: 200 }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function setup(options: { isGuest?: boolean; currentRoom?: string | null } = {}) {
  const onRejoin = vi.fn();
  const onClose = vi.fn();
  const onLogin = vi.fn();
  render(
    <PastRoomsDialog
      open
      token="tok"
      isGuest={options.isGuest ?? false}
      currentRoom={options.currentRoom ?? null}
      onRejoin={onRejoin}
      onClose={onClose}
      onLogin={onLogin}
    />,
  );
  return { onRejoin, onClose, onLogin };
}

const rows = () => screen.queryAllByTestId('past-room').map((row) => row.getAttribute('data-room-id'));

describe('PastRoomsDialog', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    act(() => setLanguage('en'));
  });

  it('lists the server history by last update, with Rejoin and "You\'re here" for the current room', async () => {
    const day = Date.UTC(2025, 4, 12, 9, 30);
    serverHistory([
      { roomId: 'CCCCCCC', added: day, updated: day + 3000 },
      { roomId: 'AAAAAAA', added: day, updated: day + 2000 },
      { roomId: 'BBBBBBB', added: day, updated: day + 1000 },
    ]);
    const { onRejoin, onClose } = setup({ currentRoom: 'AAAAAAA' });
    await waitFor(() => expect(rows()).toEqual(['CCCCCCC', 'AAAAAAA', 'BBBBBBB']));
    const current = screen.getAllByTestId('past-room')[1]!;
    expect(current.textContent).toContain("You're here");
    expect((screen.getByTestId('current-room') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getAllByTestId('rejoin-button')).toHaveLength(2);
    expect(screen.getAllByTestId('past-room')[0]!.textContent).toMatch(/Joined: May 12, 2025/);
    fireEvent.click(screen.getAllByTestId('rejoin-button')[1]!);
    expect(onRejoin).toHaveBeenCalledWith('BBBBBBB');
    expect(onClose).toHaveBeenCalled();
    // mirrored into the rooms key
    expect(Object.keys(JSON.parse(localStorage.getItem(StorageKey.rooms)!))).toHaveLength(3);
  });

  it('shows at most 20', async () => {
    serverHistory(
      Array.from({ length: 25 }, (_, i) => ({
        roomId: `ROOM${String(i).padStart(3, '0')}`,
        added: i,
        updated: i,
      })),
    );
    setup();
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(rows()[0]).toBe('ROOM024');
  });

  it('says when there is no history', async () => {
    serverHistory([]);
    setup();
    await waitFor(() => screen.getByTestId('past-rooms-empty'));
    expect(screen.getByTestId('past-rooms-empty').textContent).toContain('No history found.');
    expect(screen.getByTestId('past-rooms-empty').textContent).toContain(
      "You haven't joined any chat rooms.",
    );
    expect((screen.getByTestId('clear-history') as HTMLButtonElement).disabled).toBe(true);
  });

  it('clears the history after confirming, and not without', async () => {
    const fetchMock = serverHistory([{ roomId: 'AAAAAAA', added: 1, updated: 2 }]);
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);
    setup();
    await waitFor(() => expect(rows()).toEqual(['AAAAAAA']));
    fireEvent.click(screen.getByTestId('clear-history'));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to clear room history?');
    expect(rows()).toEqual(['AAAAAAA']);
    confirm.mockReturnValue(true);
    fireEvent.click(screen.getByTestId('clear-history'));
    await waitFor(() => screen.getByTestId('past-rooms-empty'));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true);
  });

  it('shows guests a faded list and the login prompt, without asking the server', () => {
    const fetchMock = serverHistory([]);
    const { onLogin } = setup({ isGuest: true });
    expect(screen.getByTestId('past-rooms-guest').textContent).toContain('Login to view room history.');
    expect(rows()).toEqual([]);
    fireEvent.click(screen.getByTestId('past-rooms-login'));
    expect(onLogin).toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('speaks Japanese', async () => {
    act(() => setLanguage('ja'));
    serverHistory([]);
    setup();
    await waitFor(() => screen.getByTestId('past-rooms-empty'));
    expect(screen.getByTestId('past-rooms').textContent).toContain('過去のルーム');
    expect(screen.getByTestId('clear-history').textContent).toBe('履歴を消去');
  });
});

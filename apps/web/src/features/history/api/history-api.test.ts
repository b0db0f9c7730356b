import { beforeEach, describe, expect, it, vi } from 'vitest';
import { StorageKey } from '#web/lib/storage';
import { cachedRoomHistory, clearRoomHistory, fetchRoomHistory, sortHistory } from './history-api';

describe('room history', () => {
  beforeEach(() => {
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('sorts by last update and keeps at most 20', () => {
    const rooms = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [
        `ROOM${String(i).padStart(3, '0')}`,
        { added: i, updated: 100 + i },
      ]),
    );
    const sorted = sortHistory(rooms);
    expect(sorted).toHaveLength(20);
    expect(sorted[0]).toEqual({ roomId: 'ROOM024', added: 24, updated: 124 });
    expect(sorted.at(-1)?.roomId).toBe('ROOM005');
  });

  it('mirrors the server history into the rooms key and reads it back', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(
          JSON.stringify({
            rooms: [
              { roomId: 'BBBBBBB', added: 1, updated: 30 },
              { roomId: 'AAAAAAA', added: 2, updated: 20 },
            ],
          }),
          { status: 200 },
        ),
    );
    vi.stubGlobal('fetch', fetchMock);
    const rooms = await fetchRoomHistory('token-1');
    expect(rooms.map((room) => room.roomId)).toEqual(['BBBBBBB', 'AAAAAAA']);
    expect(JSON.parse(localStorage.getItem(StorageKey.rooms)!)).toEqual({
      BBBBBBB: { added: 1, updated: 30 },
      AAAAAAA: { added: 2, updated: 20 },
    });
    expect(cachedRoomHistory()).toEqual(rooms);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/rooms/history');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer token-1');
  });

  it('clears on the server and in storage', async () => {
    localStorage.setItem(StorageKey.rooms, JSON.stringify({ AAAAAAA: { added: 1, updated: 2 } }));
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    await clearRoomHistory('token-1');
    expect((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].method).toBe('DELETE');
    expect(cachedRoomHistory()).toEqual([]);
  });

  it('reads a damaged rooms key as empty', () => {
    localStorage.setItem(StorageKey.rooms, '[1,2,3]');
    expect(cachedRoomHistory()).toEqual([]);
    localStorage.setItem(StorageKey.rooms, 'not json');
    expect(cachedRoomHistory()).toEqual([]);
  });
});

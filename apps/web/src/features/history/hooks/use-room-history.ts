import type { RoomHistoryEntry } from '@xtalk/protocol';
import { useEffect, useState } from 'react';
import { requestErrorText } from '#web/lib/error-text';
import { getLanguage } from '#web/lib/i18n';
import { cachedRoomHistory, fetchRoomHistory } from '../api/history-api';

export type HistoryLoad = { state: 'loading' } | { state: 'ready' } | { state: 'failed'; message: string };

/**
 * A member's past rooms: what this device remembers shows at once, and the server's answer (the truth,
 * across devices) replaces it. `retry` asks the server again after a failure.
 */
export function useRoomHistory(token: string) {
  const [rooms, setRooms] = useState<RoomHistoryEntry[]>(cachedRoomHistory);
  const [load, setLoad] = useState<HistoryLoad>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let active = true;
    fetchRoomHistory(token)
      .then((fresh) => {
        if (!active) return;
        setRooms(fresh);
        setLoad({ state: 'ready' });
      })
      .catch((error: unknown) => {
        if (active) setLoad({ state: 'failed', message: requestErrorText(getLanguage(), error) });
      });
    return () => {
      active = false;
    };
  }, [token, attempt]);

  const retry = () => {
    setLoad({ state: 'loading' });
    setAttempt((n) => n + 1);
  };

  return { rooms, setRooms, load, retry };
}

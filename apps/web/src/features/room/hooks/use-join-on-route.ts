import { NEW_ROOM } from '@xtalk/protocol';
import { useEffect, type RefObject } from 'react';
import type { SocketClient } from '#web/lib/socket-client';
import { StorageKey, readString, remove } from '#web/lib/storage';

/**
 * Joins on mount and whenever the address names a room other than the one we are in: the route's room,
 * else the stored one, else a new one. The stored session goes with it; a room named by the route
 * replaces the stored one.
 */
export function useJoinOnRoute(clientRef: RefObject<SocketClient | null>, routeRoom: string | null) {
  useEffect(() => {
    const client = clientRef.current;
    if (!client) return;
    if (routeRoom !== null && routeRoom === client.roomId && client.state !== 'idle') return;
    // In a task of its own, not in the one that commits the room screen (decision 0084): starting the
    // join (request, schema chunks) there made the first render one long task.
    const start = setTimeout(() => {
      remove(StorageKey.sid);
      if (routeRoom === null) {
        client.join(readString(StorageKey.rid) || null);
      } else {
        remove(StorageKey.rid);
        client.join(routeRoom === NEW_ROOM ? NEW_ROOM : routeRoom);
      }
    });
    return () => clearTimeout(start);
  }, [clientRef, routeRoom]);
}

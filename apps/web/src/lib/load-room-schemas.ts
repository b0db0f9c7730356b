import type * as RoomSchemas from './room-schemas';

let loading: Promise<typeof RoomSchemas> | undefined;

/**
 * zod, then the room's schemas (lib/room-schemas.ts), each evaluated in a task of its own while the join
 * request is in flight, not in the one that renders the room screen (decision 0084). Loaded once; a
 * failed chunk load is tried again by the next call (the connection's next attempt).
 */
export function loadRoomSchemas(): Promise<typeof RoomSchemas> {
  loading ??= (async () => {
    await import('./zod-warmup');
    return import('./room-schemas');
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

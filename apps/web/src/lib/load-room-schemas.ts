import type * as RoomSchemas from './room-schemas';

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

let loading: Promise<typeof RoomSchemas> | undefined;

/**
 * zod, its first uses (one small schema per task), then the room's schemas (lib/room-schemas.ts), each in a task of its own while the
 * join request is in flight, not in the one that renders the room screen (decision 0084). Loaded once; a
 * failed chunk load is tried again by the next call (the connection's next attempt).
 */
export function loadRoomSchemas(): Promise<typeof RoomSchemas> {
  loading ??= (async () => {
    const { warmUpSteps } = await import('./zod-warmup');
    for (const step of warmUpSteps) {
      await nextTask();
      step();
    }
    await nextTask();
    return import('./room-schemas');
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

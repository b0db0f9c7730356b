import { ApiPath, PAST_ROOMS_LIMIT, roomHistoryResponseSchema, type RoomHistoryEntry } from '@xtalk/protocol';
import { request } from '#web/lib/api-client';
import { readRoomHistory, writeRoomHistory, type RoomHistoryMap } from '#web/lib/storage';

/** The rooms to show: most recently updated first, at most PAST_ROOMS_LIMIT (docs/product.md#dialogs). */
export function sortHistory(rooms: RoomHistoryMap): RoomHistoryEntry[] {
  return Object.entries(rooms)
    .map(([roomId, entry]) => ({ roomId, added: entry.added, updated: entry.updated }))
    .filter((entry) => Number.isFinite(entry.updated))
    .sort((a, b) => b.updated - a.updated || a.roomId.localeCompare(b.roomId))
    .slice(0, PAST_ROOMS_LIMIT);
}

/** The server's history (it follows the account across devices); the `rooms` key mirrors it. */
export async function fetchRoomHistory(token: string): Promise<RoomHistoryEntry[]> {
  const { rooms } = roomHistoryResponseSchema.parse(
    await request<unknown>('GET', ApiPath.roomHistory, { token }),
  );
  const mirror: RoomHistoryMap = {};
  for (const room of rooms) mirror[room.roomId] = { added: room.added, updated: room.updated };
  writeRoomHistory(mirror);
  return sortHistory(mirror);
}

/** What this device remembers, shown at once while the server is asked. */
export function cachedRoomHistory(): RoomHistoryEntry[] {
  return sortHistory(readRoomHistory());
}

export async function clearRoomHistory(token: string): Promise<void> {
  await request<unknown>('DELETE', ApiPath.roomHistory, { token });
  writeRoomHistory({});
}

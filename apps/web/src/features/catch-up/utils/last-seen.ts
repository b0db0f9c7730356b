import { StorageKey, readString, writeString } from '#web/lib/storage';

/* The last message id this device saw in each room: where "Catch me up" starts. */

/** Rooms remembered at most; the ones seen longest ago are forgotten first. */
const MAX_ROOMS = 50;

function readAll(): Record<string, number> {
  try {
    const value = JSON.parse(readString(StorageKey.seen) ?? '{}') as unknown;
    return value && typeof value === 'object' ? (value as Record<string, number>) : {};
  } catch {
    return {};
  }
}

export function lastSeen(roomId: string): number | undefined {
  const id = readAll()[roomId];
  return typeof id === 'number' && Number.isFinite(id) ? id : undefined;
}

export function rememberSeen(roomId: string, messageId: number): void {
  const all = readAll();
  if ((all[roomId] ?? 0) >= messageId) return;
  delete all[roomId];
  all[roomId] = messageId;
  const rooms = Object.keys(all);
  for (const old of rooms.slice(0, Math.max(0, rooms.length - MAX_ROOMS))) delete all[old];
  writeString(StorageKey.seen, JSON.stringify(all));
}

import type { GuestLoginResponse, JoinRoomResponse } from '@xtalk/protocol';
import { guestLogin, joinRoom, mapLimit } from './guest.js';

/* Guests for a run: signed in as the browser does, then seated in rooms of a fixed size, in order. */

/** Signs in `count` new guests, `concurrency` at a time. */
export function loginGuests(
  baseUrl: string,
  count: number,
  concurrency: number,
): Promise<GuestLoginResponse[]> {
  return mapLimit(Array.from({ length: count }), concurrency, () => guestLogin(baseUrl));
}

/**
 * Seats the guests in rooms of `perRoom`, in order: the first of each group creates its room, then the
 * others join it. Returns each guest's session, in the guests' order.
 */
export async function seatInRooms(
  baseUrl: string,
  logins: readonly GuestLoginResponse[],
  perRoom: number,
  concurrency: number,
): Promise<JoinRoomResponse[]> {
  const sessions: JoinRoomResponse[] = [];
  const owners = logins.flatMap((_, index) => (index % perRoom === 0 ? [index] : []));
  await mapLimit(owners, concurrency, async (owner) => {
    sessions[owner] = await joinRoom(baseUrl, logins[owner]!.token, null);
  });
  await mapLimit(logins, concurrency, async (login, index) => {
    if (sessions[index]) return;
    const owner = sessions[Math.floor(index / perRoom) * perRoom];
    sessions[index] = await joinRoom(baseUrl, login.token, owner?.roomId ?? null);
  });
  return sessions;
}

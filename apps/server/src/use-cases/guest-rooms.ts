import { createPlayerLinks as createLinks, type MergedSessions } from '../accounts/index.js';
import type { UserRooms } from '../accounts/index.js';
import { deleteIdleGuests as deleteIdle } from '../accounts/index.js';
import { activeRoomUsers, forgetRoomUsers } from '../rooms/index.js';
import { countJoinedRooms, moveRoomData } from '../rooms/index.js';
import type { Db } from '../store/index.js';

/*
 * A guest signs in and keeps their rooms; a guest idle too long leaves them. Accounts owns the users and
 * rooms owns what they did in rooms: neither imports the other, this composition joins them through the
 * port accounts declares (accounts/user-rooms.ts).
 */

/** The rooms module's side of the port. */
export const roomsOfUsers: UserRooms = {
  joinedRoomCount: countJoinedRooms,
  moveUser: moveRoomData,
  activeUsers: activeRoomUsers,
  forgetUsers: forgetRoomUsers,
};

/** Player links whose merge carries the player's rooms, messages and room sessions along. */
export const createPlayerLinks = (db: Db, sessions: MergedSessions) =>
  createLinks(db, roomsOfUsers, sessions);

/** Removes idle guests with their memberships and room sessions; returns how many went. */
export const deleteIdleGuests = (db: Db, idleSince: Date) => deleteIdle(db, roomsOfUsers, idleSince);

import type { Queryable } from '../store/index.js';

/**
 * The port through which accounts reaches what another module holds of a user: the rooms they joined, their
 * messages and room sessions. Accounts declares it and never imports that module; the server's composition
 * passes the other side in (use-cases/guest-rooms.ts). Each call runs on the caller's transaction `tx`, so a
 * merge or a removal commits whole or not at all, on PGlite's one connection too.
 */
export interface UserRooms {
  /** How many rooms the user has joined (a user who joined none has no room history to keep). */
  joinedRoomCount(q: Pick<Queryable, 'query'>, userId: string): Promise<number>;
  /** Moves `fromId`'s memberships, messages and room sessions to `intoId`. */
  moveUser(tx: Queryable, fromId: string, intoId: string): Promise<void>;
  /** Those of `userIds` who joined a room or held a room session at or after `since`. */
  activeUsers(tx: Queryable, userIds: string[], since: Date): Promise<Set<string>>;
  /** Removes the users' memberships and room sessions; their messages stay in the rooms, unlinked. */
  forgetUsers(tx: Queryable, userIds: string[]): Promise<void>;
}

import { randomBytes } from 'node:crypto';
import type { Seals } from '../accounts/index.js';

/*
 * A room session's id that carries its room and expiry, sealed with its user (decision 0230): any node of
 * the cluster admits the session's socket from the id and the token alone, with no statement for the
 * session row. The row is still written (what a user's live sessions are, the sweeps); a session only ends
 * before its expiry when its user is deleted or merged, and the upgrade's read of the user refuses those.
 *
 * `s` + the room code (7) + the expiry in seconds, base 36 (7) + a nonce (8) + the seal (22): 45
 * characters, within the socket path's 64. Ids of any other shape (made before, or for a room code of
 * another form) are read from the database as before.
 */

/** A room session: whose it is, in which room, until when (the row a join writes). */
export interface SessionRow {
  id: string;
  user_id: string;
  room_id: string;
  expires_at: Date;
}

const PURPOSE = 'room-session';
const ROOM = /^[A-Z0-9]{7}$/;
const SEALED = /^s([A-Z0-9]{7})([0-9a-z]{7})([A-Za-z0-9_-]{8})([A-Za-z0-9_-]{22})$/;
const EXPIRY_DIGITS = 7;

const sealed = (userId: string, roomId: string, expiry: string, nonce: string) =>
  `${userId}\n${roomId}\n${expiry}\n${nonce}`;

/** A session of `userId` in `roomId` until about `expiresAt` (to the second after), with its sealed id. */
export function sealedSession(
  seals: Seals,
  userId: string,
  roomId: string,
  expiresAt: Date,
): SessionRow | undefined {
  const seconds = Math.ceil(expiresAt.getTime() / 1000);
  const expiry = seconds.toString(36).padStart(EXPIRY_DIGITS, '0');
  if (!ROOM.test(roomId) || expiry.length > EXPIRY_DIGITS) return undefined;
  const nonce = randomBytes(6).toString('base64url');
  const seal = seals.seal(PURPOSE, sealed(userId, roomId, expiry, nonce));
  const id = `s${roomId}${expiry}${nonce}${seal}`;
  return { id, user_id: userId, room_id: roomId, expires_at: new Date(seconds * 1000) };
}

/** The unexpired session a sealed id names, when it was sealed for `userId`; undefined otherwise. */
export function sessionOfSealedId(
  seals: Seals,
  sessionId: string,
  userId: string,
  now: number,
): SessionRow | undefined {
  const match = SEALED.exec(sessionId);
  if (!match) return undefined;
  const [, roomId, expiry, nonce, seal] = match as unknown as [string, string, string, string, string];
  if (!seals.opens(PURPOSE, sealed(userId, roomId, expiry, nonce), seal)) return undefined;
  const expiresAt = new Date(parseInt(expiry, 36) * 1000);
  if (expiresAt.getTime() <= now) return undefined;
  return { id: sessionId, user_id: userId, room_id: roomId, expires_at: expiresAt };
}

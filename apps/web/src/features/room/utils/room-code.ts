import { isRoomCode, normalizeRoomCode } from '@xtalk/protocol';

export type RoomCodeCheck = { ok: true; code: string } | { ok: false; error: 'join.invalid' | 'join.same' };

/**
 * Join Room validation (spec section 5): trimmed and upper-cased, exactly 7 characters
 * ('Invalid Room Code (must be 7 characters).'), and not the room we are in ('You are already in this room.').
 */
export function checkRoomCode(input: string, currentRoom: string | null | undefined): RoomCodeCheck {
  const code = normalizeRoomCode(input);
  if (!isRoomCode(code)) return { ok: false, error: 'join.invalid' };
  if (currentRoom && code === currentRoom) return { ok: false, error: 'join.same' };
  return { ok: true, code };
}

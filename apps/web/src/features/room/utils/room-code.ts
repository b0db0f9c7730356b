import { ROOM_CODE_LENGTH, isRoomCode, normalizeRoomCode } from '@xtalk/protocol';

export type RoomCodeCheck = { ok: true; code: string } | { ok: false; error: 'join.invalid' | 'join.same' };

/**
 * What a person typed or pasted into Join Room, as a code: a full share link gives its
 * `r`; spaces anywhere (' 2jfkash', '2JF KASH') go before the 7-character length rule applies, and the
 * result is upper-cased and cut to 7 as the field's max length would.
 */
export function roomCodeInput(raw: string): string {
  let text = raw.trim();
  if (/^https?:\/\//i.test(text) || /[?&]r=/.test(text)) {
    try {
      const room = new URL(text, 'http://x').searchParams.get('r');
      if (room) text = room;
    } catch {
      // not a link after all: treat it as typed
    }
  }
  return text.replace(/\s+/g, '').toUpperCase().slice(0, ROOM_CODE_LENGTH);
}

/**
 * Join Room validation (docs/product.md#rules): trimmed and upper-cased, exactly 7 characters
 * ('Invalid Room Code (must be 7 characters).'), and not the room we are in ('You are already in this room.').
 */
export function checkRoomCode(input: string, currentRoom: string | null | undefined): RoomCodeCheck {
  const code = normalizeRoomCode(input);
  if (!isRoomCode(code)) return { ok: false, error: 'join.invalid' };
  if (currentRoom && code === currentRoom) return { ok: false, error: 'join.same' };
  return { ok: true, code };
}

import type { MessageEditedFrame, MessageFrame } from '@xtalk/protocol';
import type { Clock } from '../clock.js';
import type { Db } from '../store/index.js';
import { MESSAGE_COLUMNS, toFrame, type MessageRow } from './message-row.js';
import { loggedChangeSql } from './room-log.js';

/** What an author asks to change: their message `id` in `roomId`, to `text`. */
export interface MessageEdit {
  roomId: string;
  userId: string;
  id: number;
  text: string;
}

export type EditRefusal = 'message_not_found' | 'edit_forbidden' | 'edit_window_closed';

export type EditOutcome =
  /** Stored and logged: the message as it is now, and the frame the room is sent (with its offset). */
  | { ok: true; message: MessageFrame; frame: MessageEditedFrame & { offset: number } }
  /** The same text again: nothing stored, nothing to redo. */
  | { ok: true; unchanged: true; message: MessageFrame }
  | { ok: false; code: EditRefusal; message: string };

/**
 * Corrections (docs/decisions/0130-corrections.md): the author replaces a message's text within the edit
 * window. The new text, the edit time and the cleared translations and note are stored, and the
 * messageEdited frame logged at the room's next offset, in one statement: a resuming client replays the
 * old translations, then the edit, then the new ones, and ends with what is stored.
 * Part of the rooms repo.
 */
export function createMessageEdits(db: Db, clock: Clock, windowSeconds: () => number) {
  return {
    async editMessage(edit: MessageEdit): Promise<EditOutcome> {
      const { rows } = await db.query<MessageRow & { user_id: string }>(
        `select user_id, ${MESSAGE_COLUMNS} from messages where room_id = $1 and id = $2`,
        [edit.roomId, edit.id],
      );
      const row = rows[0];
      if (!row) return refuse('message_not_found', 'There is no such message in this room.');
      if (row.user_id !== edit.userId)
        return refuse('edit_forbidden', 'Only the author of a message can correct it.');
      const now = clock.now();
      const cutoff = now - windowSeconds() * 1000;
      if (edit.id < cutoff) return refuse('edit_window_closed', 'This message can no longer be corrected.');
      const current = toFrame(row);
      if (current.message === edit.text) return { ok: true, unchanged: true, message: current };

      const editedAt = Math.max(now, (current.editedAt ?? 0) + 1);
      const frame: MessageEditedFrame = {
        type: 'messageEdited',
        id: edit.id,
        message: edit.text,
        editedAt,
        username: current.username,
        ...(current.displayUsername ? { displayUsername: current.displayUsername } : {}),
        language: current.language,
      };
      // The author and window are checked again in the statement itself: what was read may be stale.
      const changed = await db.query<{ seq: string | number }>(
        loggedChangeSql(
          `update messages set text = $4, edited_at = $5, translations = '{}'::jsonb, note = null,
             failed_translations = '{}'
           where room_id = $1 and id = $2 and user_id = $3 and id >= $6 returning 1`,
          7,
        ),
        [edit.roomId, edit.id, edit.userId, edit.text, editedAt, cutoff, JSON.stringify(frame)],
      );
      const seq = changed.rows[0]?.seq;
      if (seq === undefined) return refuse('edit_window_closed', 'This message can no longer be corrected.');
      const offset = Number(seq);
      const { note: _voided, failedTranslations: _retried, ...rest } = current;
      return {
        ok: true,
        message: { ...rest, message: edit.text, editedAt, translations: {} },
        frame: { ...frame, offset },
      };
    },
  };
}

function refuse(code: EditRefusal, message: string): EditOutcome {
  return { ok: false, code, message };
}

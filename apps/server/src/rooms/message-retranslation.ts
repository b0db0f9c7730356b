import type { MessageFrame } from '@xtalk/protocol';
import type { Db } from '../store/index.js';
import { MESSAGE_COLUMNS, toFrame, type MessageRow } from './message-row.js';

/** Who asks for which message's failed translations again ("Try again"). */
export interface RetranslateRequest {
  roomId: string;
  userId: string;
  id: number;
}

export type RetranslateRefusal = 'message_not_found' | 'edit_forbidden' | 'not_failed';

export type RetranslateOutcome =
  /** The message as stored, its failed languages not among its translations: queue it as new work. */
  { ok: true; message: MessageFrame } | { ok: false; code: RetranslateRefusal; message: string };

/**
 * "Try again": only the author, only a message of this room, only one with a failed language. Nothing is
 * stored here: the translations that follow clear the failures they replace. Part of the rooms repo.
 */
export function createMessageRetranslation(db: Db) {
  return {
    async retranslatable(request: RetranslateRequest): Promise<RetranslateOutcome> {
      const { rows } = await db.query<MessageRow & { user_id: string }>(
        `select user_id, ${MESSAGE_COLUMNS} from messages where room_id = $1 and id = $2`,
        [request.roomId, request.id],
      );
      const row = rows[0];
      if (!row) return refuse('message_not_found', 'There is no such message in this room.');
      if (row.user_id !== request.userId)
        return refuse('edit_forbidden', 'Only the author of a message can ask for its translation again.');
      const message = toFrame(row);
      if (!message.failedTranslations?.length)
        return refuse('not_failed', 'This message has no failed translation to try again.');
      return { ok: true, message };
    },
  };
}

function refuse(code: RetranslateRefusal, message: string): RetranslateOutcome {
  return { ok: false, code, message };
}

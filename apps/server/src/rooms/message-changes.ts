import type { Db } from '../store/index.js';
import { loggedChangeSql } from './room-log.js';

/**
 * The changes to stored messages that a room is told of (translations, notes, author renames): each one
 * updates the message and appends its frame to the room log in one statement. Part of the rooms repo.
 */
export function createMessageChanges(db: Db) {
  return {
    ...authorRenames(db),
    /**
     * Stores a complete translation and logs it; returns its offset (undefined: no such message, or its
     * text is no longer `sourceText`: the work was superseded by a correction and must not land).
     */
    async saveTranslation(
      roomId: string,
      messageId: number,
      language: string,
      text: string,
      sourceText?: string,
      revision?: number,
    ): Promise<number | undefined> {
      const frame = {
        type: 'translationComplete',
        originalTimestamp: messageId,
        targetLanguage: language,
        fullText: text,
        ...(revision !== undefined ? { revision } : {}),
      };
      const { rows } = await db.query<{ seq: string | number }>(
        loggedChangeSql(
          `update messages set translations = translations || jsonb_build_object($3::text, $4::text),
             failed_translations = array_remove(failed_translations, $3::text)
           where room_id = $1 and id = $2 and ($6::text is null or text = $6) returning 1`,
          5,
        ),
        [roomId, messageId, language, text, JSON.stringify(frame), sourceText ?? null],
      );
      return rows[0] ? Number(rows[0].seq) : undefined;
    },

    /**
     * Logs that a translation failed for good, so that a client that was away when it did is told on
     * resume and drops the chunks it holds (the live frame alone reached only those who were there).
     * The language is kept with the message, so history marks it and its author may ask again.
     * Returns the offset (undefined as for saveTranslation).
     */
    async saveTranslationFailure(
      roomId: string,
      messageId: number,
      language: string,
      sourceText?: string,
    ): Promise<number | undefined> {
      const frame = { type: 'translationFailed', originalTimestamp: messageId, targetLanguage: language };
      const { rows } = await db.query<{ seq: string | number }>(
        loggedChangeSql(
          `update messages set failed_translations =
             array_append(array_remove(failed_translations, $3::text), $3::text)
           where room_id = $1 and id = $2 and ($5::text is null or text = $5) returning 1`,
          4,
        ),
        [roomId, messageId, language, JSON.stringify(frame), sourceText ?? null],
      );
      return rows[0] ? Number(rows[0].seq) : undefined;
    },

    /** Stores a message's note and logs it; returns its offset (undefined as for saveTranslation). */
    async saveNote(
      roomId: string,
      messageId: number,
      note: string,
      sourceText?: string,
    ): Promise<number | undefined> {
      const frame = { type: 'noteComplete', originalTimestamp: messageId, note };
      const { rows } = await db.query<{ seq: string | number }>(
        loggedChangeSql(
          `update messages set note = $3
           where room_id = $1 and id = $2 and ($5::text is null or text = $5) returning 1`,
          4,
        ),
        [roomId, messageId, note, JSON.stringify(frame), sourceText ?? null],
      );
      return rows[0] ? Number(rows[0].seq) : undefined;
    },
  };
}

/** A user's new name on their past messages, everywhere. */
function authorRenames(db: Db) {
  return {
    /**
     * Renames a user's past messages in every room (after a username change) and logs the rename in the
     * room it is announced in; returns its offset there.
     */
    async renameAuthor(
      userId: string,
      username: string,
      displayUsername: string,
      announce?: { roomId: string; oldDisplayUsername: string },
    ): Promise<number | undefined> {
      if (!announce) {
        await db.query('update messages set username = $2, display_username = $3 where user_id = $1', [
          userId,
          username,
          displayUsername,
        ]);
        return undefined;
      }
      const frame = {
        type: 'usernameUpdate',
        username,
        displayUsername,
        oldDisplayUsername: announce.oldDisplayUsername,
      };
      // logged even when the user has no messages yet: the room is told of the new name either way
      const { rows } = await db.query<{ seq: string | number }>(
        loggedChangeSql(
          'update messages set username = $3, display_username = $4 where user_id = $2 returning 1',
          5,
          { always: true },
        ),
        [announce.roomId, userId, username, displayUsername, JSON.stringify(frame)],
      );
      return rows[0] ? Number(rows[0].seq) : undefined;
    },
  };
}

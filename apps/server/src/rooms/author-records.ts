import type { AuthoredMessageRecord, JoinedRoomRecord } from '../accounts/index.js';
import type { Queryable } from '../store/index.js';

/*
 * What the rooms module holds of one person, read page by page for their export, in the shapes of
 * accounts' port `PlayerRecords`: the rooms they joined and every message they wrote with its
 * translations. Nothing of anyone else: the messages are theirs by user id, the rooms are named by id
 * alone.
 */

/** Rows per query: a page is read, written out and let go before the next. */
export const RECORDS_PAGE = 200;

/** The rooms the person joined, oldest first, page by page. */
export async function* joinedRooms(
  db: Pick<Queryable, 'query'>,
  userId: string,
): AsyncGenerator<JoinedRoomRecord> {
  let after = '';
  for (;;) {
    const { rows } = await db.query<{ room_id: string; added_at: Date | string; updated_at: Date | string }>(
      `select room_id, added_at, updated_at from room_members where user_id = $1 and room_id > $2
       order by room_id limit ${RECORDS_PAGE}`,
      [userId, after],
    );
    for (const row of rows) {
      yield {
        roomId: row.room_id,
        joinedAt: new Date(row.added_at).toISOString(),
        lastVisitAt: new Date(row.updated_at).toISOString(),
      };
    }
    if (rows.length < RECORDS_PAGE) return;
    after = rows[rows.length - 1]!.room_id;
  }
}

interface AuthoredRow {
  room_id: string;
  id: string | number;
  language: string;
  text: string;
  translations: Record<string, string> | string;
  edited_at: string | number | null;
}

function toAuthored(row: AuthoredRow): AuthoredMessageRecord {
  const message: AuthoredMessageRecord = {
    roomId: row.room_id,
    id: Number(row.id),
    // a message's id is the server time it was stored at, in ms
    sentAt: new Date(Number(row.id)).toISOString(),
    language: row.language,
    text: row.text,
    translations: typeof row.translations === 'string' ? JSON.parse(row.translations) : row.translations,
  };
  if (row.edited_at !== null) message.editedAt = new Date(Number(row.edited_at)).toISOString();
  return message;
}

/** Every message the person wrote, by room then time, page by page (keyset: no page is read twice). */
export async function* authoredMessages(
  db: Pick<Queryable, 'query'>,
  userId: string,
): AsyncGenerator<AuthoredMessageRecord> {
  let after = { roomId: '', id: 0 };
  for (;;) {
    const { rows } = await db.query<AuthoredRow>(
      `select room_id, id, language, text, translations, edited_at from messages
        where user_id = $1 and (room_id, id) > ($2, $3) and not is_tutorial
        order by room_id, id limit ${RECORDS_PAGE}`,
      [userId, after.roomId, after.id],
    );
    for (const row of rows) yield toAuthored(row);
    if (rows.length < RECORDS_PAGE) return;
    const last = rows[rows.length - 1]!;
    after = { roomId: last.room_id, id: Number(last.id) };
  }
}

import { dbOf, type Store } from './store.js';

/** Forgets a room session as its expiry does, leaving what a join handed over. */
export async function forgetSession(store: Store, sessionId: string): Promise<void> {
  await dbOf(store).query('delete from sessions where id = $1', [sessionId]);
}

/** A membership last updated at `updatedAt`: a join stamps the present, history and idle guests read it. */
export async function ageRoomMembership(
  store: Store,
  userId: string,
  roomId: string,
  updatedAt: Date,
): Promise<void> {
  await dbOf(store).query('update room_members set updated_at = $3 where user_id = $1 and room_id = $2', [
    userId,
    roomId,
    updatedAt,
  ]);
}

/**
 * `count` changes logged in a room's resume log at its next offsets, with no message: what edits,
 * reactions and deletions leave, without the messages they change.
 */
export async function logRoomChanges(store: Store, roomId: string, count: number): Promise<void> {
  for (let change = 0; change < count; change += 1) {
    await dbOf(store).query(
      `with bumped as (update rooms set last_seq = last_seq + 1 where id = $1 returning last_seq)
       insert into room_changes (room_id, seq, frame) select $1, last_seq, '{}' from bumped`,
      [roomId],
    );
  }
}

/**
 * Every row of the rooms module, as one comparable value: rooms with who made them, memberships,
 * sessions and messages with their authors (no API lists them across rooms and users).
 */
export async function storedRoomRows(store: Store) {
  const db = dbOf(store);
  const read = async <Row extends object>(sql: string) => (await db.query<Row>(sql)).rows;
  return {
    rooms: await read<{ id: string; created_by: string | null }>(
      'select id, created_by from rooms order by id',
    ),
    members: await read<{ user_id: string; room_id: string }>(
      'select user_id, room_id from room_members order by user_id, room_id',
    ),
    sessions: await read<{ id: string }>('select id from sessions order by id'),
    messages: await read<{ room_id: string; id: string; user_id: string | null; text: string }>(
      'select room_id, id, user_id, text from messages order by room_id, id',
    ),
  };
}

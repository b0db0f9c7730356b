import type { UsernameUpdateFrame } from '@xtalk/protocol';
import type { Queryable } from '../store/index.js';
import { loggedChangeSql } from './room-log.js';

/*
 * What the rooms module lets go of when a person deletes their account, run inside the deletion's
 * transaction (accounts/erasure/). Their messages stay for the others in the room but lose the person:
 * no user id, no name, no client id, marked `author_deleted`
 * (docs/decisions/0213-a-deleted-account-leaves-its-messages-nameless.md). Their memberships, room
 * sessions and the rooms' record of who made them go. The room log keeps its offsets: the frames there
 * that carry the person's name are rewritten without it, never removed.
 */

/** Rename chains are short; this bounds the walk back through a person's earlier names. */
const MAX_RENAMES = 50;

/** The names the person was shown under: now, on their messages, and before each rename the log holds. */
async function namesOf(tx: Queryable, userId: string, current: string[]): Promise<string[]> {
  const { rows } = await tx.query<{ name: string }>(
    `select distinct username as name from messages where user_id = $1
     union select distinct display_username from messages where user_id = $1 and display_username is not null`,
    [userId],
  );
  const names = new Set([...current, ...rows.map((row) => row.name)].filter((name) => name !== ''));
  for (let walked = 0; walked < MAX_RENAMES && names.size > 0; walked += 1) {
    const older = await tx.query<{ name: string }>(
      `select distinct frame->>'oldDisplayUsername' as name from room_changes
        where frame->>'type' = 'usernameUpdate'
          and (frame->>'username' = any($1::text[]) or frame->>'displayUsername' = any($1::text[]))
          and not (frame->>'oldDisplayUsername' = any($1::text[]))`,
      [[...names]],
    );
    const found = older.rows.map((row) => row.name).filter((name) => name && !names.has(name));
    if (found.length === 0) break;
    for (const name of found) names.add(name);
  }
  return [...names];
}

/** Rewrites the log's frames that carry the person's names: edits lose the author, renames every name. */
async function eraseFromLog(tx: Queryable, userId: string, names: string[]): Promise<void> {
  await tx.query(
    `update room_changes c set frame = c.frame - 'username' - 'displayUsername'
       from messages m
      where m.user_id = $1 and c.room_id = m.room_id and c.frame->>'type' = 'messageEdited'
        and (c.frame->>'id')::bigint = m.id`,
    [userId],
  );
  if (names.length === 0) return;
  await tx.query(
    `update room_changes set frame = jsonb_build_object('type', 'usernameUpdate', 'username', '',
       'displayUsername', '', 'oldDisplayUsername', '')
      where frame->>'type' = 'usernameUpdate'
        and (frame->>'username' = any($1::text[]) or frame->>'displayUsername' = any($1::text[])
             or frame->>'oldDisplayUsername' = any($1::text[]))`,
    [names],
  );
}

/**
 * The most message ids one room is told of: a client holds at most the recent window a join sends (the
 * gateway's replay limit); older messages reach it from the store, nameless already.
 */
const MAX_TOLD_IDS = 500;

/** A room's frame telling its members that the person's messages there are nameless now, at its offset. */
export interface ErasedAuthorNotice {
  roomId: string;
  frame: UsernameUpdateFrame & { offset: number };
}

/** Logs, in each room the person wrote in, that their latest messages there lost their name. */
async function logErasure(tx: Queryable, kept: { id: string; room_id: string }[]) {
  const byRoom = new Map<string, number[]>();
  for (const row of kept) byRoom.set(row.room_id, [...(byRoom.get(row.room_id) ?? []), Number(row.id)]);
  const notices: ErasedAuthorNotice[] = [];
  for (const [roomId, ids] of byRoom) {
    const messageIds = ids.sort((a, b) => b - a).slice(0, MAX_TOLD_IDS);
    const frame = {
      type: 'usernameUpdate' as const,
      username: '',
      displayUsername: '',
      oldDisplayUsername: '',
      authorDeleted: true as const,
      messageIds,
    };
    const { rows } = await tx.query<{ seq: string | number }>(
      loggedChangeSql('select 1', 2, { always: true }),
      [roomId, JSON.stringify(frame)],
    );
    if (rows[0]) notices.push({ roomId, frame: { ...frame, offset: Number(rows[0].seq) } });
  }
  return notices;
}

/**
 * Removes the person from the rooms: `currentNames` are the username and display name they have now.
 * Returns the frames that tell each room they wrote in, to be sent once the deletion has committed.
 */
export async function eraseRoomAuthor(
  tx: Queryable,
  userId: string,
  currentNames: string[],
): Promise<ErasedAuthorNotice[]> {
  await eraseFromLog(tx, userId, await namesOf(tx, userId, currentNames));
  const kept = await tx.query<{ id: string; room_id: string }>(
    `update messages set user_id = null, username = '', display_username = null, client_id = null,
       author_deleted = true
     where user_id = $1 returning id, room_id`,
    [userId],
  );
  await tx.query('update rooms set created_by = null where created_by = $1', [userId]);
  await tx.query('delete from room_members where user_id = $1', [userId]);
  await tx.query('delete from sessions where user_id = $1', [userId]);
  return logErasure(tx, kept.rows);
}

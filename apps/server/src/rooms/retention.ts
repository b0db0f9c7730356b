import type { Db } from '../store/index.js';

/*
 * Message retention (MESSAGE_RETENTION_DAYS, decision 0216): messages older than the cutoff go, and with
 * them everything stored about them: their translations, hints and failed languages (columns of the
 * message row) and the logged changes that carry their text (translations, notes, corrections in
 * room_changes). Summaries and spoken audio are never stored, so nothing else holds a message.
 *
 * A message's id is its server time in ms, so "older than" is `id < cutoff` on the messages' primary key.
 * The work is cut into small statements, each its own transaction on the background lane, with a turn
 * for everything else between them: chat never waits behind more than one small delete. Rooms are read
 * a page at a time, so no statement grows with the number of rooms either.
 *
 * Offsets are never reused: what goes leaves a hole at the start of the room's log, which a resume
 * already answers with RESYNC and the recent window (gateway/resume.ts), and a node's sequencer skips
 * (decision 0061). A resume position after the hole stays exact.
 */

export interface RetentionOptions {
  /** Messages with an id (server time in ms) below this go. */
  before: number;
  /** Messages removed per statement. */
  batchSize?: number;
  /** Rooms looked at per statement. */
  roomPageSize?: number;
  /** Ends the run between two statements (the server is shutting down). */
  signal?: AbortSignal;
}

const BATCH_SIZE = 200;
const ROOM_PAGE_SIZE = 500;

/** A turn for the sockets and the foreground lane between two statements. */
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

type Lane = Db['background'];

/** The rooms of one page (by id, after `after`) and which of them hold a message older than `before`. */
async function roomPage(lane: Lane, after: string, before: number, size: number) {
  const { rows } = await lane.query<{ id: string; old: boolean }>(
    `select p.id, exists (select 1 from messages m where m.room_id = p.id and m.id < $2) as old
       from (select id from rooms where id > $1 order by id limit $3) p order by p.id`,
    [after, before, size],
  );
  return {
    last: rows.at(-1)?.id,
    old: rows.filter((row) => row.old).map((row) => row.id),
    full: rows.length === size,
  };
}

/** One batch of a room's oldest messages, with the changes logged before the last of them. */
async function removeBatch(lane: Lane, roomId: string, before: number, size: number): Promise<number> {
  const { rows } = await lane.query<{ removed: string | number }>(
    `with gone as (
       delete from messages where room_id = $1 and id in (
         select id from messages where room_id = $1 and id < $2 order by id limit $3
       ) returning seq
     ), earlier as (
       delete from room_changes where room_id = $1 and seq <= (select max(seq) from gone) returning 1
     )
     select (select count(*) from gone) as removed, (select count(*) from earlier) as changes`,
    [roomId, before, size],
  );
  return Number(rows[0]?.removed ?? 0);
}

/**
 * The changes logged after a room's last removed message that still name a removed message (a late
 * translation, a correction): their frames carry what is gone. A frame names its message by
 * `originalTimestamp` or `id`, the message's id. Renames name no message and stay until the resume log
 * is trimmed.
 */
async function removeLaterChanges(lane: Lane, roomId: string, before: number): Promise<void> {
  await lane.query(
    `delete from room_changes where room_id = $1
       and jsonb_typeof(coalesce(frame->'originalTimestamp', frame->'id')) = 'number'
       and coalesce(frame->'originalTimestamp', frame->'id') < to_jsonb($2::bigint)`,
    [roomId, before],
  );
}

/** Removes every message older than `before`, room by room, in batches; returns how many went. */
export async function removeOldMessages(db: Db, options: RetentionOptions): Promise<number> {
  const lane = db.background;
  const { before, signal } = options;
  const batchSize = options.batchSize ?? BATCH_SIZE;
  let removed = 0;
  for (let after = ''; !signal?.aborted;) {
    const page = await roomPage(lane, after, before, options.roomPageSize ?? ROOM_PAGE_SIZE);
    for (const roomId of page.old) {
      for (let count = batchSize; count === batchSize && !signal?.aborted;) {
        count = await removeBatch(lane, roomId, before, batchSize);
        removed += count;
        await yieldTurn();
      }
      if (signal?.aborted) break;
      await removeLaterChanges(lane, roomId, before);
      await yieldTurn();
    }
    if (!page.full || page.last === undefined) break;
    after = page.last;
    await yieldTurn();
  }
  return removed;
}

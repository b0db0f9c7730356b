import type { MessageFrame, ServerFrame } from '@xtalk/protocol';
import type { Db } from '../store/index.js';
import { MESSAGE_COLUMNS, toFrame, type MessageRow } from './message-row.js';

/*
 * A room's log (docs/decisions/0061-room-offsets-and-epochs.md). Every stored change of a room takes the
 * next offset (`seq`) from the room row, under that row's lock, in the statement that stores it:
 * a message (messages.seq), a translation, a note or a rename (room_changes). A rolled-back statement
 * takes no offset, so offsets are gap-free. The log is what a resuming client is replayed from.
 */

/** How many stored messages a joiner without a resume position is sent: the room's recent window. */
export const REPLAY_LIMIT = 500;

/** A room's epoch and latest offset. */
export interface RoomPosition {
  epoch: string;
  offset: number;
}

/** A room's position and its recent window read in one snapshot: what its start on a node needs. */
export interface RoomStart {
  position: RoomPosition;
  /** The latest messages, oldest first, at most `limit`. */
  messages: MessageFrame[];
  limit: number;
}

/** A frame that belongs in the log, with its offset. */
export type LoggedFrame = ServerFrame & { offset: number };

/**
 * Wraps a data-modifying statement (`changed`, returning a row when something changed) so the same
 * statement takes the room's next offset and logs `frame` at it. $1 must be the room id and
 * $`frameParam` the frame's JSON. `always` logs the frame even when nothing changed.
 */
export function loggedChangeSql(
  changed: string,
  frameParam: number,
  options: { always?: boolean } = {},
): string {
  const condition = options.always ? '' : ' and exists (select 1 from changed)';
  return `with changed as (${changed}),
    bumped as (
      update rooms set last_seq = last_seq + 1 where id = $1${condition} returning last_seq
    )
    insert into room_changes (room_id, seq, frame) select $1, last_seq, $${frameParam}::jsonb from bumped
    returning seq`;
}

export function createRoomLog(db: Db) {
  return {
    /** Where the room is now; undefined when it does not exist. */
    async position(roomId: string): Promise<RoomPosition | undefined> {
      const { rows } = await db.query<{ epoch: string; last_seq: string | number }>(
        'select epoch, last_seq from rooms where id = $1',
        [roomId],
      );
      const row = rows[0];
      return row ? { epoch: row.epoch, offset: Number(row.last_seq) } : undefined;
    },

    /**
     * The room's position and its latest `limit` messages (oldest first), read in one statement, so from
     * one snapshot: what a joiner without a resume position is sent before READY (gateway/resume.ts).
     * One query instead of two on every connect; position undefined when the room does not exist.
     */
    async recentWindow(
      roomId: string,
      limit: number,
    ): Promise<{ position: RoomPosition | undefined; messages: MessageFrame[] }> {
      const { rows } = await db.query<
        { room_epoch: string; room_last_seq: string | number } & Partial<MessageRow>
      >(
        `select r.epoch as room_epoch, r.last_seq as room_last_seq, m.* from rooms r
           left join lateral (
             select ${MESSAGE_COLUMNS} from messages where room_id = r.id order by id desc limit $2
           ) m on true
         where r.id = $1`,
        [roomId, limit],
      );
      const first = rows[0];
      if (!first) return { position: undefined, messages: [] };
      const messages = rows
        .filter((row) => row.id !== null && row.id !== undefined)
        .map((row) => toFrame(row as MessageRow))
        .reverse();
      return { position: { epoch: first.room_epoch, offset: Number(first.room_last_seq) }, messages };
    },

    /** The logged frames after `after` up to `upTo` (inclusive), in offset order, at most `limit`. */
    async readSince(roomId: string, after: number, upTo: number, limit: number): Promise<LoggedFrame[]> {
      const { rows } = await db.query<MessageRow & { frame: ServerFrame | string | null }>(
        `select * from (
           select ${MESSAGE_COLUMNS}, null::jsonb as frame from messages
             where room_id = $1 and seq > $2 and seq <= $3
           union all
           select null, seq, null, null, null, null, null, null, null, null, null, null, null, frame from room_changes
             where room_id = $1 and seq > $2 and seq <= $3
         ) log order by seq asc limit $4`,
        [roomId, after, upTo, limit],
      );
      return rows.map((row) => {
        const offset = Number(row.seq);
        if (row.frame === null) return toFrame(row) as LoggedFrame;
        const frame = typeof row.frame === 'string' ? (JSON.parse(row.frame) as ServerFrame) : row.frame;
        return { ...frame, offset } as LoggedFrame;
      });
    },
  };
}
export type RoomLog = ReturnType<typeof createRoomLog>;

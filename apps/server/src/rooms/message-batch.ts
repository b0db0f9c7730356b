import type { Clock } from '../clock.js';
import type { Db } from '../store/index.js';
import {
  MESSAGE_COLUMNS,
  toFrame,
  type MessageRow,
  type NewMessage,
  type StoredMessage,
} from './message-row.js';

/*
 * Group commit of one room's waiting messages (decision 0112). $1 the room, $2 the server time, then
 * one array per column. Messages whose (author, client id) is stored already are left out (`fresh`); the
 * room row is bumped once by their count, under its lock, and the k-th fresh message (in the order given)
 * takes the k-th of the ids and offsets bumped: what storing them one by one would have given.
 */
const BATCH_INSERT_SQL = `with input as (
    select * from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
      with ordinality as i(user_id, username, display_username, language, text, client_id, ord)
  ),
  fresh as (
    select i.*, row_number() over (order by i.ord) as n from input i
    where i.client_id is null
      or not exists (select 1 from messages m where m.user_id = i.user_id and m.client_id = i.client_id)
  ),
  counted as (select count(*) as k from fresh),
  bumped as (
    update rooms set last_message_id = greatest(last_message_id + counted.k, $2 + counted.k - 1),
      last_seq = last_seq + counted.k, updated_at = now()
    from counted where id = $1 and counted.k > 0
    returning last_message_id, last_seq, counted.k
  )
  insert into messages (room_id, id, seq, user_id, username, display_username, language, text, client_id)
  select $1, b.last_message_id - b.k + f.n, b.last_seq - b.k + f.n, f.user_id, f.username,
    f.display_username, f.language, f.text, f.client_id
  from fresh f cross join bumped b
  returning user_id, ${MESSAGE_COLUMNS}`;

function batchParams(messages: NewMessage[], clock: Clock): unknown[] {
  const column = (pick: (message: NewMessage) => string | null) => messages.map(pick);
  return [
    messages[0]!.roomId,
    clock.now(),
    column((m) => m.userId),
    column((m) => m.username),
    column((m) => m.displayUsername),
    column((m) => m.language),
    column((m) => m.text),
    column((m) => m.clientId ?? null),
  ];
}

/** PostgreSQL's unique_violation: a client id stored by someone else at the same moment. */
export const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23505';

const fulfilled = (value: StoredMessage): PromiseSettledResult<StoredMessage> => ({
  status: 'fulfilled',
  value,
});
const rejected = (reason: unknown): PromiseSettledResult<StoredMessage> => ({ status: 'rejected', reason });

/**
 * Stores one room's messages in one statement and returns each one's outcome, in the order given. A
 * message the statement did not store (its client id was stored already, or the room is gone) goes through
 * `insertOne` afterwards, which answers the duplicate or the error; if the statement fails on a client id
 * (two copies in the batch, or another node's at the same moment) nothing of it was stored and every
 * message goes through `insertOne`.
 */
export async function insertMessageBatch(
  db: Db,
  clock: Clock,
  messages: NewMessage[],
  insertOne: (message: NewMessage) => Promise<StoredMessage>,
): Promise<PromiseSettledResult<StoredMessage>[]> {
  const roomId = messages[0]?.roomId;
  if (messages.some((message) => message.roomId !== roomId)) throw new Error('A batch is for one room.');
  // A batch of one is most batches outside a burst (each room's posts are stored as they come). The batch
  // statement's unnest, window and anti-join cost several times the single insert's CPU on PGlite
  // (decision 0124), so one message takes the single statement, with the same outcome.
  if (messages.length === 1) return [await insertOne(messages[0]!).then(fulfilled, rejected)];
  let rows: (MessageRow & { user_id: string | null })[] = [];
  try {
    ({ rows } = await db.query<MessageRow & { user_id: string | null }>(
      BATCH_INSERT_SQL,
      batchParams(messages, clock),
    ));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  rows.sort((a, b) => Number(a.seq) - Number(b.seq));
  let next = 0;
  const results: PromiseSettledResult<StoredMessage>[] = [];
  for (const message of messages) {
    const row = rows[next];
    // the stored rows are the fresh messages in the order given: the next one is this message's, or
    // this message was left out
    if (row && row.user_id === message.userId && row.client_id === (message.clientId ?? null)) {
      next += 1;
      results.push(fulfilled({ message: toFrame(row), duplicate: false, roomId: message.roomId }));
    } else {
      results.push(await insertOne(message).then(fulfilled, rejected));
    }
  }
  return results;
}

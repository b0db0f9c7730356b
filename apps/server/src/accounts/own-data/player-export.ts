import type { Txn } from '@xtalk/protocol';
import type { Queryable } from '../../store/index.js';
import { emailsOf, profileOf, signInsOf, type ExportProfile } from './export-profile.js';
import type { AuthoredMessageRecord, JoinedRoomRecord, PlayerRecords } from './player-records.js';

/*
 * A person's export (GET /api/player/export), written as it is read: each generator yields the text of
 * one record at a time over paged queries, and the route pipes it into the reply, so no export is held
 * in memory whole (docs/decisions/0214-the-export-is-streamed.md). JSON is the portable copy; Markdown
 * is its readable twin with the same content.
 */

type Reader = Pick<Queryable, 'query'>;

export const EXPORT_FORMAT = 'xtalk-export/1';

/** Each item of `items` as JSON, comma-separated, inside a named array. */
async function* jsonArray<T>(
  name: string,
  items: AsyncIterable<T> | T[],
  last = false,
): AsyncGenerator<string> {
  yield `  ${JSON.stringify(name)}: [`;
  let first = true;
  for await (const item of items) {
    yield `${first ? '' : ','}\n    ${JSON.stringify(item)}`;
    first = false;
  }
  yield `${first ? '' : '\n  '}]${last ? '' : ','}\n`;
}

/** The export as one JSON document; `profile` was read before the reply started. */
export async function* jsonExport(
  db: Reader,
  records: PlayerRecords,
  profile: ExportProfile,
  now: Date,
): AsyncGenerator<string> {
  yield `{\n  "format": ${JSON.stringify(EXPORT_FORMAT)},\n  "exportedAt": ${JSON.stringify(now.toISOString())},\n`;
  yield `  "profile": ${JSON.stringify(profile)},\n`;
  yield* jsonArray('signIns', await signInsOf(db, profile.id));
  yield* jsonArray('emails', await emailsOf(db, profile.id));
  yield* jsonArray('rooms', records.rooms(db, profile.id));
  yield* jsonArray('messages', records.messages(db, profile.id));
  yield* jsonArray('ledger', records.ledger(db, profile.id));
  yield* jsonArray('orders', await records.orders(db, profile.id), true);
  yield '}\n';
}

/** Markdown's special characters in text the person or others typed, so it reads as text. */
function md(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&').replace(/\r?\n/g, ' ');
}

function messageLines(message: AuthoredMessageRecord): string {
  const edited = message.editedAt ? ` (edited ${message.editedAt})` : '';
  const translations = Object.entries(message.translations)
    .map(([language, text]) => `\n  - ${language}: ${md(text)}`)
    .join('');
  return `- ${message.sentAt}, room ${message.roomId}, ${message.language}${edited}: ${md(message.text)}${translations}\n`;
}

const roomLine = (room: JoinedRoomRecord) =>
  `- ${room.roomId}: joined ${room.joinedAt}, last visit ${room.lastVisitAt}\n`;
const txnLine = (txn: Txn) =>
  `- ${new Date(txn.createdAt).toISOString()} ${txn.kind} (${md(txn.cause)}): free ${txn.free}, paid ${txn.premium}${txn.reference ? `, ${md(txn.reference)}` : ''}\n`;

/** A section of lines, or a line saying it is empty. */
async function* section<T>(title: string, items: AsyncIterable<T> | T[], line: (item: T) => string) {
  yield `\n## ${title}\n\n`;
  let none = true;
  for await (const item of items) {
    yield line(item);
    none = false;
  }
  if (none) yield '(none)\n';
}

/** The same export as readable Markdown. */
export async function* markdownExport(
  db: Reader,
  records: PlayerRecords,
  profile: ExportProfile,
  now: Date,
): AsyncGenerator<string> {
  yield `# What XTalk holds about ${md(profile.displayName ?? profile.username)}\n\nExported ${now.toISOString()} (${EXPORT_FORMAT}).\n\n`;
  yield `## Profile\n\n- id: ${profile.id}\n- username: ${md(profile.username)}\n- full name: ${md(profile.fullName)}\n`;
  yield `- signed up with: ${profile.provider}\n- since: ${profile.createdAt}\n- player data: ${md(JSON.stringify(profile.playerData))}\n`;
  const signIns = await signInsOf(db, profile.id);
  yield* section(
    'Sign-in methods',
    signIns,
    (link) =>
      `- ${link.provider}${link.issuer ? ` (${md(link.issuer)})` : ''}: ${md(link.subject)}, linked ${link.linkedAt}\n`,
  );
  const emails = await emailsOf(db, profile.id);
  yield* section(
    'Email addresses',
    emails,
    (email) =>
      `- ${md(email.email)}: ${email.confirmedAt ? `confirmed ${email.confirmedAt}` : 'not confirmed'}\n`,
  );
  yield* section('Rooms', records.rooms(db, profile.id), roomLine);
  yield* section('Messages', records.messages(db, profile.id), messageLines);
  yield* section('Credits ledger', records.ledger(db, profile.id), txnLine);
  const orders = await records.orders(db, profile.id);
  yield* section(
    'Orders',
    orders,
    (order) =>
      `- ${order.createdAt} ${md(order.productId)}: ${order.amount} credits for ${order.priceJpy} JPY, ${order.status}\n`,
  );
}

export { profileOf };

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsersRepo, jsonExport, markdownExport, profileOf } from '../accounts/index.js';
import { createMessagesRepo, createRoomsRepo } from '../rooms/index.js';
import type { Db } from '../store/index.js';
import { openMigratedDb } from '../testing/migrated-database.js';
import { recordingStatements } from '../testing/recording-db.js';
import { playerRecords } from './player-records.js';

/*
 * The export is written as it is read (docs/decisions/0214-the-export-is-streamed.md): its first message
 * goes out after one page of messages was read, and a person with more messages than a page gets every
 * one of them, page by page, in both forms.
 */

let db: Db;
let userId = '';
const MESSAGES = 450;

beforeAll(async () => {
  db = await openMigratedDb();
  const author = await createUsersRepo(db).createGuest();
  userId = author.id;
  const roomId = await createRoomsRepo(db, { now: () => 1_000 }).createRoom(userId);
  const messages = createMessagesRepo(db, { now: () => 1_000 });
  for (let index = 0; index < MESSAGES; index++) {
    await messages.insertMessage({
      roomId,
      userId,
      username: author.username,
      displayUsername: author.username,
      language: 'en',
      text: `message ${index}`,
    });
  }
}, 120_000);
afterAll(() => db.close());

const readsOfMessages = (statements: string[]) =>
  statements.filter((sql) => /\bfrom messages\b/.test(sql)).length;

// the export only reads: nothing is announced
const records = playerRecords(async () => {});

describe('the export, streamed', () => {
  it('sends the first message after one page, and every message in the end', async () => {
    const { db: recording, statements } = recordingStatements(db);
    const profile = (await profileOf(db, userId))!;
    for await (const chunk of jsonExport(recording, records, profile, new Date(0))) {
      if (chunk.includes('"message 0"')) break;
    }
    expect(readsOfMessages(statements)).toBe(1);
    let text = '';
    for await (const chunk of jsonExport(recording, records, profile, new Date(0))) text += chunk;
    const whole = JSON.parse(text);
    expect(whole.messages).toHaveLength(MESSAGES);
    expect(new Set(whole.messages.map((message: { text: string }) => message.text)).size).toBe(MESSAGES);
    // the first export read one page; the whole one read every page and one that came back short
    expect(readsOfMessages(statements)).toBe(1 + Math.ceil(MESSAGES / 200));
  });

  it('has the same messages in Markdown', async () => {
    const profile = (await profileOf(db, userId))!;
    let text = '';
    for await (const chunk of markdownExport(db, records, profile, new Date(0))) text += chunk;
    expect(text.match(/^- .*: message \d+$/gm)).toHaveLength(MESSAGES);
  });
});

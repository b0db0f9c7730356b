import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { chatDuring } from '../testing/chat-during.js';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';
import { memberLogin } from '../testing/members.js';
import { scratchDatabase } from '../testing/scratch-database.js';
import { storedRoomRows } from '../testing/seed/index.js';
import { NODES_SECRET, serviceNodes } from '../testing/service-nodes.js';
import { BACKUP_PATH } from './backup-route.js';
import { restoreBackup, takeBackup } from './backups.js';

/*
 * `npm run test:services`: `npm run backup` with DATABASE_URL is Debian's pg_dump -Fc, taken while a
 * client chats on a node; `npm run restore` is pg_restore into a new, empty database made here (and
 * dropped after), on which a node starts with every acknowledged message and the same sign-ins
 * (decision 0217).
 */
describe('backup and restore with PostgreSQL', () => {
  const services = serviceNodes('xtalk_backup', 1, {
    WS_CHAT_PER_SECOND: '1000',
    WS_CHAT_BURST: '1000',
    WS_FRAMES_PER_SECOND: '1000',
    WS_FRAME_BURST: '1000',
  });
  const restoredDb = scratchDatabase('xtalk_restored');
  const work = mkdtempSync(join(tmpdir(), 'xtalk-pg-backup-'));
  const settingsFor = (url: string) => loadConfig({ NODE_ENV: 'test', DATABASE_URL: url, DATA_DIR: work });
  let node: TestServer;
  beforeAll(async () => {
    [node] = services.nodes as [TestServer];
    await restoredDb.createEmpty();
  });
  afterAll(async () => {
    await restoredDb.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it('has no backup route: PostgreSQL is copied by its own tools', async () => {
    const response = await node.app.inject({ method: 'GET', url: BACKUP_PATH });
    expect(response.statusCode).toBe(404);
  });

  it('restores a pg_dump taken while a client chats into a new database that serves the same people', async () => {
    const guest = await guestLogin(node.app);
    const member = await memberLogin(node, NODES_SECRET, 'backup-member');
    const { roomId } = await joinRoom(node.app, guest.token, null);
    const client = await TestClient.join(node, guest, roomId, 'en', { protocolVersion: 8 });
    const file = join(work, 'xtalk.dump');
    const { before, acknowledged } = await chatDuring(client, roomId, 'pg', () =>
      takeBackup(settingsFor(services.database.url), file),
    );
    client.close();

    // the running database is not empty: refused, and nothing in it changes
    const rows = await storedRoomRows(node);
    await expect(restoreBackup(settingsFor(services.database.url), file)).rejects.toThrow(/not empty/);
    expect(await storedRoomRows(node)).toEqual(rows);

    await restoreBackup(settingsFor(restoredDb.url), file);
    const restored = await startServer({ ...services.env, DATABASE_URL: restoredDb.url });
    try {
      const texts = (await storedRoomRows(restored)).messages
        .filter((row) => row.room_id === roomId)
        .map((row) => row.text);
      for (const text of before) expect(texts).toContain(text);
      expect(acknowledged).toEqual(expect.arrayContaining(texts));
      // both sign-ins still hold: the guest's and the member's tokens open the room
      (await TestClient.join(restored, guest, roomId, 'en', { protocolVersion: 8 })).close();
      (await TestClient.join(restored, member, roomId, 'ja', { protocolVersion: 8 })).close();
    } finally {
      await restored.close();
    }
  }, 120_000);
});

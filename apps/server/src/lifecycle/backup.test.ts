import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuestLoginResponse } from '@xtalk/protocol';
import { loadConfig } from '../config.js';
import { chatDuring } from '../testing/chat-during.js';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';
import { startMailbox, tokenOf, type Mailbox } from '../testing/mailbox.js';
import { storedRoomRows } from '../testing/seed/index.js';
import { BACKUP_PATH } from './backup-route.js';
import { restoreBackup, takeBackup } from './backups.js';

/*
 * `npm run backup` and `npm run restore` on the embedded database (decision 0217): a copy taken from the
 * running server while a client chats, restored into a new DATA_DIR, starts a server that holds every
 * message acknowledged before the copy was asked for and signs the same people in. In-process servers on
 * data directories (PGlite on its own thread, as in production): no child process is needed.
 */

const EMAIL = 'backup@example.com';
const PASSWORD = 'correct horse battery';
/** How long an acknowledgement may take while the copy is being taken, on a loaded machine. */
const CHAT_WAIT_MS = 60_000;

describe('backup and restore of the embedded database', () => {
  const work = mkdtempSync(join(tmpdir(), 'xtalk-backup-'));
  const settingsOf = (server: TestServer, dataDir = server.dataDir) =>
    loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: new URL(server.baseUrl).port });
  let mailbox: Mailbox;
  let server: TestServer;
  let alice: GuestLoginResponse;

  beforeAll(async () => {
    mailbox = await startMailbox();
    const env = {
      ...{ SMTP_URL: mailbox.url, MAIL_FROM: 'XTalk <a@xtalk.test>', PUBLIC_URL: 'http://xtalk.test' },
      // the client below chats as fast as it is answered
      ...{
        WS_CHAT_PER_SECOND: '1000',
        WS_CHAT_BURST: '1000',
        WS_FRAMES_PER_SECOND: '1000',
        WS_FRAME_BURST: '1000',
      },
    };
    server = await startServer(env, { dataDir: join(work, 'running') });
    alice = await guestLogin(server.app);
    const post = (url: string, payload: object) => server.app.inject({ method: 'POST', url, payload });
    expect((await post('/api/auth/email/register', { email: EMAIL, password: PASSWORD })).statusCode).toBe(
      202,
    );
    expect((await post('/api/auth/email/verify', { token: tokenOf(await mailbox.next()) })).statusCode).toBe(
      200,
    );
  });
  afterAll(async () => {
    await server.close();
    await mailbox.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('refuses a copy to a caller without the token in DATA_DIR', async () => {
    const get = (authorization?: string) =>
      server.app.inject({ method: 'GET', url: BACKUP_PATH, headers: authorization ? { authorization } : {} });
    expect((await get()).statusCode).toBe(401);
    expect((await get('Bearer not-the-token')).statusCode).toBe(403);
    expect((await get(`Bearer ${alice.token}`)).statusCode).toBe(403);
    await expect(
      takeBackup(settingsOf(server, join(work, 'elsewhere')), join(work, 'x.tgz')),
    ).rejects.toThrow(/No backup-token in DATA_DIR/);
    expect(readdirSync(work)).not.toContain('x.tgz');
  });

  it('restores a copy taken while a client chats: acknowledged messages and sign-ins are all there', async () => {
    const { roomId } = await joinRoom(server.app, alice.token, null);
    const client = await TestClient.join(server, alice, roomId, 'en', { protocolVersion: 8 });
    const file = join(work, 'copy.tar.gz');
    // the copy is taken between two statements: chat waits for it (decision 0217), nothing is lost
    const { before, acknowledged } = await chatDuring(
      client,
      roomId,
      'message',
      () => takeBackup(settingsOf(server), file),
      CHAT_WAIT_MS,
    );
    client.close();

    // what the docs say: the auth secret is put back beside the restored database
    const restoredDir = join(work, 'restored');
    mkdirSync(restoredDir);
    copyFileSync(join(server.dataDir, 'auth-secret'), join(restoredDir, 'auth-secret'));
    await restoreBackup(settingsOf(server, restoredDir), file);
    const restored = await startServer({}, { dataDir: restoredDir });
    try {
      const stored = (await storedRoomRows(restored)).messages.filter((row) => row.room_id === roomId);
      const texts = stored.map((row) => row.text);
      expect(before.length).toBeGreaterThanOrEqual(3);
      for (const text of before) expect(texts).toContain(text);
      expect(acknowledged).toEqual(expect.arrayContaining(texts));
      // the guest's token still opens the room; the email account signs in with its password
      const again = await TestClient.join(restored, alice, roomId, 'en', { protocolVersion: 8 });
      again.close();
      const login = await restored.app.inject({
        method: 'POST',
        url: '/api/auth/email/login',
        payload: { email: EMAIL, password: PASSWORD },
      });
      expect(login.statusCode, login.body).toBe(200);
    } finally {
      await restored.close();
    }
  }, 180_000);

  it('restores only into an empty DATA_DIR and changes nothing when it refuses', async () => {
    const file = join(work, 'refused.tar.gz');
    await takeBackup(settingsOf(server), file);
    const full = join(work, 'full');
    mkdirSync(join(full, 'db'), { recursive: true });
    writeFileSync(join(full, 'db', 'PG_VERSION'), '17\n');
    await expect(restoreBackup(settingsOf(server, full), file)).rejects.toThrow(/is not empty \(db\)/);
    expect(readdirSync(join(full, 'db'))).toEqual(['PG_VERSION']);
    // not a backup at all: refused, and the empty directory is left empty
    const empty = join(work, 'empty');
    const junk = join(work, 'junk.tar.gz');
    writeFileSync(junk, 'not a tarball');
    await expect(restoreBackup(settingsOf(server, empty), junk)).rejects.toThrow(/is not a backup/);
    expect(readdirSync(empty)).toEqual([]);
  }, 120_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MessageFrame } from '@xtalk/protocol';
import { guestLogin, joinRoom, startServer, TestClient } from './testing/harness.js';

describe('a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'xtalk-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('closes sockets with 1012, loses no stored message, and keeps logins and rooms', async () => {
    const first = await startServer({}, { dataDir });
    const login = await guestLogin(first.app);
    const { roomId } = await joinRoom(first.app, login.token, null);
    const client = await TestClient.join(first, login, roomId);
    const texts = Array.from({ length: 6 }, (_, i) => `before restart ${i}`);
    // the last frames are still being stored when shutdown begins: shutdown waits for them
    for (const text of texts) client.send({ type: 'chat', language: 'en', message: text, room: roomId });
    await client.next((frame) => frame.type === 'message' && frame.message === texts[0]);
    await first.close();
    expect(await client.closed()).toBe(1012);
    const acknowledged = client.messages().map((frame) => (frame as MessageFrame).message);

    const second = await startServer({}, { dataDir });
    try {
      // the token is still valid (same generated secret in DATA_DIR) and the room still exists
      const me = await second.app.inject({
        method: 'GET',
        url: '/api/me',
        headers: { authorization: `Bearer ${login.token}` },
      });
      expect(me.statusCode).toBe(200);
      const again = await TestClient.join(second, login, roomId);
      const replayed = again.messages().map((frame) => (frame as MessageFrame).message);
      for (const text of acknowledged) expect(replayed).toContain(text);
      expect(replayed).toEqual(texts.slice(0, replayed.length));
      again.close();
    } finally {
      await second.close();
    }
  }, 60_000); // two starts on disk; the first initialises the data directory in a child process (store/db.ts)
});

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import {
  ApiPath,
  CloseCode,
  PROTOCOL_VERSION,
  type GuestLoginResponse,
  type JoinRoomResponse,
} from '@xtalk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../store/index.js';
import { freePort } from '../testing/free-port.js';
import { GENEROUS_LIMITS, TestClient } from '../testing/harness.js';

/*
 * SIGTERM to a real server process (src/server.ts under tsx) while clients chat: readiness and joins say
 * 503 while it drains, every socket is closed with 1012, the process exits 0, and every message a client
 * saw acknowledged is in the database exactly once.
 */
const root = resolve(import.meta.dirname, '../../../..');
const CHATTERS = 4;
const LISTENERS = 8;
const MESSAGES_EACH = 60;

describe('SIGTERM drains a real server process', () => {
  let child: ChildProcess;
  let dataDir: string;
  let baseUrl: string;
  const log: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'xtalk-sigterm-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--import', 'tsx', join(root, 'apps/server/src/server.ts')], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        // started as bare as a deploy starts it: production, which needs the public address
        PUBLIC_URL: baseUrl,
        DATA_DIR: dataDir,
        ALTCHA_COST: '20',
        AI_PROVIDER: 'fake',
        LOG_LEVEL: 'info',
        DRAIN_SECONDS: '3',
        ...GENEROUS_LIMITS,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (data: Buffer) => log.push(data.toString()));
    child.stderr!.on('data', (data: Buffer) => log.push(data.toString()));
    const deadline = Date.now() + 150_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${log.join('')}`);
      const ready = await fetch(`${baseUrl}${ApiPath.healthReady}`).catch(() => undefined);
      if (ready?.ok) break;
      if (Date.now() > deadline) throw new Error(`server did not start:\n${log.join('')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 180_000);

  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function guest(): Promise<GuestLoginResponse> {
    const { challenge } = (await (await fetch(`${baseUrl}/api/auth/botcheck`)).json()) as {
      challenge: Parameters<typeof solveChallenge>[0]['challenge'];
    };
    const solution = await solveChallenge({ challenge, deriveKey });
    const botcheck = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
    const response = await fetch(`${baseUrl}/api/auth/guest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ botcheck }),
    });
    return (await response.json()) as GuestLoginResponse;
  }

  function askToJoin(login: GuestLoginResponse, roomId: string | null) {
    return fetch(`${baseUrl}${ApiPath.join}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${login.token}` },
      body: JSON.stringify({ action: 'join', roomId }),
    });
  }

  async function enter(login: GuestLoginResponse, roomId: string | null): Promise<TestClient> {
    const session = (await (await askToJoin(login, roomId)).json()) as JoinRoomResponse;
    const url = `${baseUrl.replace('http', 'ws')}${ApiPath.socket(session.sessionId)}?t=${login.token}`;
    const client = await TestClient.open(url);
    client.send({
      type: 'setUsername',
      username: login.user.username,
      language: 'en',
      room: session.roomId,
      protocolVersion: PROTOCOL_VERSION,
    });
    await client.next((frame) => frame.type === 'system' && frame.message === 'READY', 20_000);
    return client;
  }

  it('turns unready, refuses joins with retry-after, closes with 1012, exits 0, loses nothing', async () => {
    const logins = await Promise.all(Array.from({ length: CHATTERS + LISTENERS }, () => guest()));
    const first = await enter(logins[0]!, null);
    const roomId = (
      first.frames.find((f) => f.type === 'system' && f.message === 'READY') as { roomId: string }
    ).roomId;
    const clients = [first, ...(await Promise.all(logins.slice(1).map((login) => enter(login, roomId))))];

    // each chatter sends until its socket closes; what the server answered with its own message is acknowledged
    const acknowledged = new Set<string>();
    const chatting = clients.slice(0, CHATTERS).map(async (client, who) => {
      for (let n = 0; n < MESSAGES_EACH && client.closeCode === undefined; n++) {
        const text = `chatter ${who} message ${n}`;
        void client
          .next((f) => f.type === 'message' && f.message === text, 30_000)
          .then(
            () => acknowledged.add(text),
            () => undefined,
          );
        client.send({ type: 'chat', language: 'en', message: text, room: roomId, clientId: `c${who}-${n}` });
        await new Promise((r) => setTimeout(r, 15));
      }
    });
    while (acknowledged.size < CHATTERS * 5) await new Promise((r) => setTimeout(r, 10));

    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    // while the sockets are being closed the node says it is not ready and sends joins elsewhere
    let ready: Response;
    do ready = await fetch(`${baseUrl}${ApiPath.healthReady}`);
    while (ready.status === 200);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ok: false, reason: 'draining' });
    const refused = await askToJoin(logins[0]!, roomId);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await fetch(`${baseUrl}${ApiPath.health}`).then((r) => r.status)).toBe(200);

    const codes = await Promise.all(clients.map((client) => client.closed(20_000)));
    expect(codes).toEqual(clients.map(() => CloseCode.ServiceRestart));
    await Promise.all(chatting);
    expect(await exited).toBe(0);

    const db = await openDb({ dataDir });
    try {
      const { rows } = await db.query<{ text: string; copies: number }>(
        `select text, count(*)::int as copies from messages where text like 'chatter %' group by text`,
      );
      const stored = new Map(rows.map((row) => [row.text, row.copies]));
      for (const text of acknowledged) expect(stored.get(text), text).toBe(1);
      expect([...stored.values()].every((copies) => copies === 1)).toBe(true);
    } finally {
      await db.close();
    }
  }, 120_000);
});

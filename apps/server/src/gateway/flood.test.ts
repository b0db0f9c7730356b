import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode, PROTOCOL_VERSION, type GuestLoginResponse, type MessageFrame } from '@xtalk/protocol';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';
import { dbOf } from '../testing/seed/index.js';

/*
 * One user cannot stall everyone: a flooder's sockets are capped and closed, and a room flooded with
 * messages does not hold back another room's message (rooms take turns to store). Asserted on order and
 * counts, never on time; the latency effect is measured by `npm run bench` (the flood run).
 */

let server: TestServer;
beforeAll(async () => {
  // one message stored at a time makes the turn-taking visible in the order of deliveries
  server = await startServer({ STORE_CONCURRENCY: '1', MAX_SOCKETS_PER_USER: '4', LANGUAGES: 'en' });
}, 60_000);
afterAll(() => server.close());

const isMessage = (text: string) => (frame: { type: string; message?: unknown }) =>
  frame.type === 'message' && frame.message === text;

/** Waits until this many messages are queued or being stored (the health endpoint's counts). */
async function queued(count: number) {
  for (let i = 0; i < 400; i++) {
    const health = (await server.app.inject({ url: '/api/health' })).json() as {
      messagesStoring: number;
      messagesWaiting: number;
    };
    if (health.messagesStoring + health.messagesWaiting >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never had ${count} messages queued`);
}

async function socketFor(login: GuestLoginResponse, roomId: string) {
  const { sessionId } = await joinRoom(server.app, login.token, roomId);
  return TestClient.open(`${server.wsBase}/xtalk_ws/${sessionId}?t=${login.token}`);
}

describe('flood', { timeout: 60_000 }, () => {
  it("caps a flooder's sockets, answers then closes a junk flood, and other rooms go on", async () => {
    const host = await guestLogin(server.app);
    const floodRoom = (await joinRoom(server.app, host.token, null)).roomId;
    const quietRoom = (await joinRoom(server.app, host.token, null)).roomId;
    const quiet = await TestClient.join(server, host, quietRoom);

    const mallory = await guestLogin(server.app);
    const sockets = await Promise.all([1, 2, 3, 4].map(() => socketFor(mallory, floodRoom)));
    await expect(socketFor(mallory, floodRoom)).rejects.toMatchObject({ statusCode: 429 });
    for (const socket of sockets) {
      socket.send({
        type: 'setUsername',
        protocolVersion: PROTOCOL_VERSION,
        username: mallory.user.username,
        language: 'en',
        room: floodRoom,
      });
      await socket.next((frame) => frame.type === 'system' && frame.message === 'READY');
    }
    // junk as fast as the socket takes it: invalid frames, valid chats, binary
    for (const socket of sockets) {
      for (let i = 0; i < 400; i++) {
        if (i % 3 === 0) socket.send('{not json');
        else if (i % 3 === 1)
          socket.send({ type: 'chat', language: 'en', message: `flood ${i}`, room: floodRoom });
        else socket.ws.send(Buffer.from([1, 2, 3]), { binary: true });
      }
    }
    for (const socket of sockets) {
      expect(await socket.closed(15_000)).toBe(CloseCode.PolicyViolation);
      const limited = socket.frames.filter(
        (frame) => frame.type === 'error' && frame.code === 'rate_limited',
      );
      expect(limited.length).toBeGreaterThan(0);
      // told, not answered frame by frame: far fewer answers than frames
      expect(socket.frames.filter((frame) => frame.type === 'error').length).toBeLessThan(100);
    }
    quiet.send({ type: 'chat', language: 'en', message: 'quiet hello', room: quietRoom });
    await quiet.next(isMessage('quiet hello'));
    // the flooder is refused new sockets for the cool-down (its reconnect loop costs next to nothing)
    await expect(socketFor(mallory, floodRoom)).rejects.toMatchObject({ statusCode: 429 });
    quiet.close();
  });

  it("stores a quiet room's message before a flooded room's backlog", async () => {
    const observer = await guestLogin(server.app);
    const floodRoom = (await joinRoom(server.app, observer.token, null)).roomId;
    const quietRoom = (await joinRoom(server.app, observer.token, null)).roomId;
    const inFlood = await TestClient.join(server, observer, floodRoom);
    const inQuiet = await TestClient.join(server, observer, quietRoom);
    const flooders = await Promise.all(
      Array.from({ length: 16 }, async () => {
        const login = await guestLogin(server.app);
        return { login, client: await TestClient.join(server, login, floodRoom) };
      }),
    );
    const floodMessages = () => inFlood.frames.filter((frame) => frame.type === 'message').length;
    // hold the store, so the backlog is all queued before anything is stored
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const db = dbOf(server);
    const holding = db.transaction(() => held);
    for (const { client } of flooders) {
      for (let i = 0; i < 8; i++) {
        client.send({ type: 'chat', language: 'en', message: `backlog ${i}`, room: floodRoom });
      }
    }
    // one message of each flooder is queued (a connection's frames run one after another) ...
    await queued(16);
    // ... and then the quiet room speaks: first come, first served would store it last of these 17
    inQuiet.send({ type: 'chat', language: 'en', message: 'me first', room: quietRoom });
    await queued(17);
    release();
    await holding;
    const quietMessage = await inQuiet.next<MessageFrame>(isMessage('me first'), 30_000);
    // the store's order: rows in the order they were inserted (ctid; nothing updates them here, there is
    // one language so nothing is translated). What one test client reads first across two sockets is not it.
    const { rows } = await db.query<{ n: number | string }>(
      `select count(*) as n from messages where room_id = $1
       and ctid < (select ctid from messages where room_id = $2 and id = $3)`,
      [floodRoom, quietRoom, quietMessage.id],
    );
    expect(Number(rows[0]!.n)).toBeLessThan(8);
    await inFlood.next(() => floodMessages() === 16 * 8, 60_000);
    for (const client of [inFlood, inQuiet, ...flooders.map((flooder) => flooder.client)]) client.close();
  });
});

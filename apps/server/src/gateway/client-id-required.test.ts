import {
  CLIENT_ID_REQUIRED_PROTOCOL_VERSION,
  PROTOCOL_VERSION,
  type ErrorFrame,
  type MessageFrame,
  type SystemFrame,
} from '@xtalk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';
import { dbOf } from '../testing/seed/index.js';

/*
 * A client of protocol 7 (or of CLIENT_ID_REQUIRED_FROM_PROTOCOL on) must send a clientId with every chat
 * frame: READY says so, and a chat frame without one is refused and stored nowhere. Older clients chat as
 * before. Frames go out with ws.send, exactly as written (TestClient.send would add the clientId).
 */

const readyOf = (client: TestClient) =>
  client.next<SystemFrame>((frame) => frame.type === 'system' && frame.message === 'READY');

async function chatter(server: TestServer, protocolVersion: number) {
  const guest = await guestLogin(server.app);
  const { roomId } = await joinRoom(server.app, guest.token, null);
  const client = await TestClient.join(server, guest, roomId, 'en', { protocolVersion });
  const chat = (message: string, clientId?: string) =>
    client.ws.send(
      JSON.stringify({
        type: 'chat',
        language: 'en',
        room: roomId,
        message,
        ...(clientId ? { clientId } : {}),
      }),
    );
  const messageWith = (text: string) =>
    client.next<MessageFrame>((frame) => frame.type === 'message' && frame.message === text);
  return { client, chat, messageWith };
}

describe('clientId required from a protocol version on', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('tells a client of the newest version in READY and refuses its chat without a clientId', async () => {
    const { client, chat, messageWith } = await chatter(server, PROTOCOL_VERSION);
    expect(await readyOf(client)).toMatchObject({ clientIdRequired: true });
    chat('without an id');
    const refusal = await client.nextNew<ErrorFrame>((frame) => frame.type === 'error');
    expect(refusal).toMatchObject({ code: 'bad_frame', message: expect.stringMatching(/clientId/) });
    // the next frame goes through, and the refused one was never stored or fanned out
    chat('with an id', 'c-1');
    expect(await messageWith('with an id')).toMatchObject({ clientId: 'c-1' });
    expect(client.frames.some((frame) => frame.type === 'message' && frame.message === 'without an id')).toBe(
      false,
    );
    const { rows } = await dbOf(server).query<{ n: number }>(
      "select count(*)::int as n from messages where text = 'without an id'",
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('serves an older client as before: no field in READY, a chat without a clientId is stored', async () => {
    const { client, chat, messageWith } = await chatter(server, CLIENT_ID_REQUIRED_PROTOCOL_VERSION - 1);
    expect((await readyOf(client)).clientIdRequired).toBeUndefined();
    chat('old style');
    expect(await messageWith('old style')).toMatchObject({ message: 'old style' });
  });

  it('draws the line where CLIENT_ID_REQUIRED_FROM_PROTOCOL says', async () => {
    const older = CLIENT_ID_REQUIRED_PROTOCOL_VERSION - 1;
    const strict = await startServer({ CLIENT_ID_REQUIRED_FROM_PROTOCOL: String(older) });
    try {
      const { client } = await chatter(strict, older);
      expect(await readyOf(client)).toMatchObject({ clientIdRequired: true });
    } finally {
      await strict.close();
    }
  });
});

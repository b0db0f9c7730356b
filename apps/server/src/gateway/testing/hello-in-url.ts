import { PROTOCOL_VERSION } from '@xtalk/protocol';
import { guestLogin, joinRoom, TestClient, type TestServer } from '../../testing/harness.js';

/* A guest's connect as the web client makes it: joined over HTTP, then the socket with the hello in its URL. */

/** A guest joined over HTTP to `roomId` (null: a new room), with the hello its socket sends. */
export async function guestJoined(server: TestServer, roomId: string | null = null) {
  const login = await guestLogin(server.app);
  const session = await joinRoom(server.app, login.token, roomId);
  const hello = {
    type: 'setUsername',
    username: login.user.username,
    language: 'en',
    room: session.roomId,
    protocolVersion: PROTOCOL_VERSION,
  };
  return { login, session, hello };
}

/** Opens the session's socket with the hello in its URL and waits for READY. */
export async function openWithHello(server: TestServer, sessionId: string, token: string, hello: object) {
  const query = new URLSearchParams({ t: token, hello: JSON.stringify(hello) });
  const client = await TestClient.open(`${server.wsBase}/xtalk_ws/${sessionId}?${query}`);
  await client.next((frame) => frame.type === 'system' && frame.message === 'READY');
  return client;
}

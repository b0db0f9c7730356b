import type { ErrorFrame, MessageFrame, ServerFrame } from '@xtalk/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';

/*
 * A client over a limit is told, message by message: every chat frame it sends is either stored and
 * fanned out, or answered with a `rate_limited` error carrying its clientId, so the web outbox can send
 * it again. Never silence, whichever bucket refuses it: the connection's overall one (counted before a
 * frame is parsed) or the chat one.
 */

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

/** The answer to the chat frame `clientId`: its message, or its refusal. */
const answerTo = (clientId: string) => (frame: ServerFrame) =>
  (frame.type === 'message' || frame.type === 'error') && frame.clientId === clientId;

async function burst(env: Record<string, string>, count: number) {
  const server = await startServer({ LANGUAGES: 'en', ...env });
  servers.push(server);
  const guest = await guestLogin(server.app);
  const { roomId } = await joinRoom(server.app, guest.token, null);
  const client = await TestClient.join(server, guest, roomId, 'en');
  const ids = Array.from({ length: count }, (_, i) => `burst-${i}`);
  for (const clientId of ids) {
    client.send({ type: 'chat', language: 'en', room: roomId, message: `m ${clientId}`, clientId });
  }
  const answers = await Promise.all(ids.map((clientId) => client.next(answerTo(clientId))));
  return {
    stored: answers.filter((frame): frame is MessageFrame => frame.type === 'message'),
    refused: answers.filter((frame): frame is ErrorFrame => frame.type === 'error'),
  };
}

describe('a client sending messages too fast', { timeout: 60_000 }, () => {
  it('gets an error naming each message the overall frame limit refused', async () => {
    const { stored, refused } = await burst(
      // the overall bucket binds first: a few frames at once, the chat bucket out of the way
      { WS_FRAMES_PER_SECOND: '1', WS_FRAME_BURST: '6', WS_CHAT_PER_SECOND: '100', WS_CHAT_BURST: '100' },
      20,
    );
    expect(stored.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(10);
    for (const frame of refused) {
      expect(frame).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/too fast/) });
    }
  });

  it('gets an error naming each message the chat limit refused', async () => {
    const { stored, refused } = await burst({ WS_CHAT_PER_SECOND: '1', WS_CHAT_BURST: '3' }, 12);
    expect(stored.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(5);
    for (const frame of refused) expect(frame.code).toBe('rate_limited');
  });
});

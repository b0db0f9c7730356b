import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOM_CODE_ALPHABET } from '@xtalk/protocol';
import { guestLogin, startServer, type TestServer } from '../testing/harness.js';

describe('POST /xtalk', () => {
  let server: TestServer;
  let token: string;
  const join = (roomId: unknown, auth = `Bearer ${token}`) =>
    server.app.inject({
      method: 'POST',
      url: '/xtalk',
      headers: { authorization: auth },
      payload: { action: 'join', roomId },
    });

  beforeAll(async () => {
    server = await startServer();
    token = (await guestLogin(server.app)).token;
  });
  afterAll(() => server.close());

  it('creates a room with a fresh 7-character code without look-alikes', async () => {
    const codes = new Set<string>();
    for (const roomId of [null, 'new', null]) {
      const response = await join(roomId);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.roomId).toHaveLength(7);
      expect([...body.roomId].every((c: string) => ROOM_CODE_ALPHABET.includes(c))).toBe(true);
      // sealed with its room and expiry (decision 0230), and fit for the socket's path
      expect(body.sessionId).toMatch(new RegExp(`^s${body.roomId}[A-Za-z0-9_-]{37}$`));
      codes.add(body.roomId);
    }
    expect(codes.size).toBe(3);
  });

  it('joins an existing room by code, tolerating case and spaces, with a new session each time', async () => {
    const { roomId } = (await join(null)).json();
    const a = await join(` ${roomId.toLowerCase()} `);
    const b = await join(roomId);
    expect(a.statusCode).toBe(200);
    expect(a.json().roomId).toBe(roomId);
    expect(b.json().sessionId).not.toBe(a.json().sessionId);
  });

  it('answers an unknown code with 404 and a malformed one with 400', async () => {
    const unknown = await join('ZZZZZZ9');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Room ZZZZZZ9 does not exist.');
    // the code is what the web words in the interface language
    expect(unknown.json().code).toBe('room_not_found');
    for (const bad of ['ABC', 'ABCDEFGH', 'ABC-123', 42, '']) {
      const response = await join(bad);
      expect(response.statusCode, String(bad)).toBe(400);
      expect(response.json().code, String(bad)).toBe('bad_request');
      expect(response.json().message).toMatch(/Invalid Room Code|Invalid input|expected/);
    }
    const wrongAction = await server.app.inject({
      method: 'POST',
      url: '/xtalk',
      headers: { authorization: `Bearer ${token}` },
      payload: { action: 'leave', roomId: null },
    });
    expect(wrongAction.statusCode).toBe(400);
  });

  it('needs a valid token', async () => {
    const missing = await join(null, '');
    expect(missing.statusCode).toBe(401);
    expect(missing.json().code).toBe('unauthorized');
    expect((await join(null, 'Bearer nope')).statusCode).toBe(401);
  });
});

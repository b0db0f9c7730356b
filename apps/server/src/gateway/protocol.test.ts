import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PING_PROTOCOL_VERSION,
  PROTOCOL_VERSION,
  type ErrorFrame,
  type GuestLoginResponse,
  type MessageFrame,
  type SystemFrame,
  type UsernameUpdateFrame,
} from '@xtalk/protocol';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';
import { setDisplayName } from '../testing/seed/index.js';

const isMessage = (text: string) => (frame: { type: string; message?: unknown }) =>
  frame.type === 'message' && frame.message === text;
const isError = (code: string) => (frame: { type: string; code?: unknown }) =>
  frame.type === 'error' && frame.code === code;

describe('room protocol', () => {
  let server: TestServer;
  let alice: GuestLoginResponse;
  let bob: GuestLoginResponse;
  let roomId: string;

  beforeAll(async () => {
    server = await startServer({}, { heartbeatMs: 300 });
    alice = await guestLogin(server.app);
    bob = await guestLogin(server.app);
    roomId = (await joinRoom(server.app, alice.token, null)).roomId;
  });
  afterAll(() => server.close());

  it('replays stored messages oldest first, then READY, then live messages to everyone', async () => {
    const a = await TestClient.join(server, alice, roomId);
    for (const text of ['one', 'two', 'three']) {
      a.send({ type: 'chat', language: 'en', message: text, room: roomId });
      await a.next(isMessage(text));
    }
    const b = await TestClient.join(server, bob, roomId, 'ja');
    const ready = b.frames.findIndex((frame) => frame.type === 'system' && frame.message === 'READY');
    const replay = b.frames.slice(0, ready) as MessageFrame[];
    expect(replay.map((frame) => frame.message)).toEqual(['one', 'two', 'three']);
    expect(replay.every((frame, i) => i === 0 || frame.id > replay[i - 1]!.id)).toBe(true);
    expect(replay.every((frame) => frame.id === frame.timestamp)).toBe(true);
    expect(replay[0]).toMatchObject({
      type: 'message',
      username: alice.user.username,
      displayUsername: alice.user.displayUsername,
      language: 'en',
      translations: {},
      isTutorial: false,
    });
    expect((b.frames[ready] as SystemFrame).roomId).toBe(roomId);
    expect((b.frames[ready] as SystemFrame).protocolVersion).toBe(PROTOCOL_VERSION);

    const join = await a.next<SystemFrame>((frame) => frame.type === 'system' && frame.message === 'JOIN');
    expect(join).toMatchObject({ username: bob.user.username, displayUsername: bob.user.displayUsername });
    // JOIN is for everyone else: the joiner is not told about themselves
    expect(b.frames.some((frame) => frame.type === 'system' && frame.message === 'JOIN')).toBe(false);

    b.send({ type: 'chat', language: 'ja', message: 'こんにちは', room: roomId.toLowerCase() });
    const atA = await a.next<MessageFrame>(isMessage('こんにちは'));
    const atB = await b.next<MessageFrame>(isMessage('こんにちは'));
    expect(atA).toEqual(atB);
    expect(atA.id).toBeGreaterThan(replay[2]!.id);

    b.close();
    const leave = await a.next<SystemFrame>((frame) => frame.type === 'system' && frame.message === 'LEAVE');
    expect(leave.username).toBe(bob.user.username);
    a.close();
  });

  it('answers ping with pong (protocol 5), before the hello and after, for any client version', async () => {
    const { sessionId } = await joinRoom(server.app, bob.token, roomId);
    const raw = await TestClient.open(`${server.wsBase}/xtalk_ws/${sessionId}?t=${bob.token}`);
    raw.send({ type: 'ping' });
    await raw.next((frame) => frame.type === 'pong');
    raw.close();
    // a version-1 client (no protocolVersion) is answered too; READY says the server's version
    const a = await TestClient.join(server, alice, roomId);
    const ready = await a.next<SystemFrame>((frame) => frame.type === 'system' && frame.message === 'READY');
    expect(ready.protocolVersion).toBe(PROTOCOL_VERSION);
    expect(PROTOCOL_VERSION).toBeGreaterThanOrEqual(PING_PROTOCOL_VERSION);
    a.send({ type: 'ping', extra: 'ignored' });
    await a.nextNew((frame) => frame.type === 'pong');
    expect(a.frames.filter((frame) => frame.type === 'error')).toEqual([]);
    a.close();
  });

  it('takes the hello from the socket URL (protocol 5): READY comes without a frame from the client', async () => {
    const join = await joinRoom(server.app, bob.token, roomId);
    expect(join.protocolVersion).toBe(PROTOCOL_VERSION);
    const hello = {
      type: 'setUsername',
      username: bob.user.username,
      language: 'ja',
      room: join.roomId,
      protocolVersion: PROTOCOL_VERSION,
    };
    const url = `${server.wsBase}/xtalk_ws/${join.sessionId}?t=${bob.token}`;
    const b = await TestClient.open(`${url}&hello=${encodeURIComponent(JSON.stringify(hello))}`);
    const ready = await b.next<SystemFrame>((frame) => frame.type === 'system' && frame.message === 'READY');
    expect(ready.protocolVersion).toBe(PROTOCOL_VERSION);
    // the same hello again as a frame (a client unsure whether the server read its URL) changes nothing
    b.send(hello);
    b.send({ type: 'chat', language: 'ja', message: 'URLから', room: join.roomId });
    await b.next(isMessage('URLから'));
    expect(b.frames.filter((frame) => frame.type === 'system' && frame.message === 'READY')).toHaveLength(1);
    expect(b.frames.filter((frame) => frame.type === 'error')).toEqual([]);
    b.close();

    // a hello in the URL is checked like a frame: a bad one is an error frame, and the socket stays open
    const again = await joinRoom(server.app, bob.token, roomId);
    const bad = await TestClient.open(
      `${server.wsBase}/xtalk_ws/${again.sessionId}?t=${bob.token}&hello=${encodeURIComponent('{"type":"setUsername"')}`,
    );
    const error = await bad.next<ErrorFrame>((frame) => frame.type === 'error');
    expect(error.code).toBe('bad_frame');
    bad.send({ ...hello, room: again.roomId });
    await bad.next((frame) => frame.type === 'system' && frame.message === 'READY');
    bad.close();
  });

  it('keeps the socket open and answers bad input with an error frame', async () => {
    const a = await TestClient.join(server, alice, roomId);
    const cases: [unknown, string][] = [
      ['{not json', 'bad_frame'],
      [{ type: 'nope' }, 'bad_frame'],
      [{ type: 'chat', message: 'hi' }, 'bad_frame'],
      [{ type: 'chat', language: 'en', message: 'x'.repeat(2001), room: roomId }, 'message_invalid'],
      [{ type: 'chat', language: 'en', message: '   ', room: roomId }, 'message_invalid'],
      [{ type: 'chat', language: 'en', message: 'hi', room: 'OTHER12' }, 'wrong_room'],
      [{ type: 'chat', language: 'xx', message: 'hi', room: roomId }, 'unsupported_language'],
      [{ type: 'setLanguage', language: 'fr', room: roomId }, 'unsupported_language'],
      [{ type: 'setUsername', username: bob.user.username, language: 'en', room: roomId }, 'forbidden'],
      [{ type: 'updateUsername', username: 'someone-else', displayUsername: 'Mallory' }, 'forbidden'],
    ];
    for (const [frame, code] of cases) {
      const error = a.nextNew<ErrorFrame>((f) => f.type === 'error');
      a.send(frame);
      expect((await error).code, JSON.stringify(frame).slice(0, 80)).toBe(code);
      expect((await error).message.length).toBeGreaterThan(5);
    }
    const binary = a.nextNew<ErrorFrame>((f) => f.type === 'error');
    a.ws.send(Buffer.from([1, 2, 3]));
    expect((await binary).code).toBe('audio_rejected');

    // still open and working, and nothing bad was stored
    a.send({ type: 'chat', language: 'en', message: 'x'.repeat(2000), room: roomId });
    await a.next(isMessage('x'.repeat(2000)));
    const c = await TestClient.join(server, bob, roomId);
    const stored = c.messages() as MessageFrame[];
    expect(stored.some((frame) => frame.message === '   ' || frame.message.length > 2000)).toBe(false);
    a.close();
    c.close();
  });

  it('needs setUsername before chat', async () => {
    const { sessionId } = await joinRoom(server.app, alice.token, roomId);
    const a = await TestClient.open(`${server.wsBase}/xtalk_ws/${sessionId}?t=${alice.token}`);
    a.send({ type: 'chat', language: 'en', message: 'too early', room: roomId });
    expect((await a.next<ErrorFrame>(isError('not_joined'))).message).toMatch(/setUsername/);
    a.close();
  });

  it('limits the rate of chat frames per connection', async () => {
    const { roomId: quiet } = await joinRoom(server.app, alice.token, null);
    const a = await TestClient.join(server, alice, quiet);
    for (let i = 0; i < 12; i++) a.send({ type: 'chat', language: 'en', message: `burst ${i}`, room: quiet });
    await a.next(isError('rate_limited'));
    a.close();
  });

  it('applies a language switch and tells the room about a profile rename', async () => {
    const a = await TestClient.join(server, alice, roomId);
    const b = await TestClient.join(server, bob, roomId);
    a.send({ type: 'setLanguage', language: 'ja', room: roomId });
    // a rename happens through the profile API; the frame asks the server to tell the room
    await setDisplayName(server, alice.user.userId, 'Alice');
    a.send({
      type: 'updateUsername',
      username: alice.user.username,
      displayUsername: 'whatever the client says',
    });
    const update = await b.next<UsernameUpdateFrame>((frame) => frame.type === 'usernameUpdate');
    expect(update).toEqual({
      type: 'usernameUpdate',
      username: alice.user.username,
      displayUsername: 'Alice',
      oldDisplayUsername: alice.user.displayUsername,
      offset: expect.any(Number),
    });
    const c = await TestClient.join(server, bob, roomId);
    const renamed = (c.messages() as MessageFrame[]).filter(
      (frame) => frame.username === alice.user.username,
    );
    expect(renamed.length).toBeGreaterThan(0);
    expect(renamed.every((frame) => frame.displayUsername === 'Alice')).toBe(true);
    await setDisplayName(server, alice.user.userId, null);
    a.send({
      type: 'updateUsername',
      username: alice.user.username,
      displayUsername: alice.user.displayUsername,
    });
    await b.nextNew((frame) => frame.type === 'usernameUpdate');
    for (const client of [a, b, c]) client.close();
  });

  it('drops a peer that stops answering pings and announces that it left', async () => {
    const a = await TestClient.join(server, alice, roomId);
    const { sessionId } = await joinRoom(server.app, bob.token, roomId);
    const silent = await TestClient.open(`${server.wsBase}/xtalk_ws/${sessionId}?t=${bob.token}`, {
      autoPong: false,
    });
    const joined = a.nextNew((frame) => frame.type === 'system' && frame.message === 'JOIN');
    const left = a.nextNew<SystemFrame>(
      (frame) => frame.type === 'system' && frame.message === 'LEAVE',
      4000,
    );
    silent.send({ type: 'setUsername', username: bob.user.username, language: 'en', room: roomId });
    await silent.next((frame) => frame.type === 'system' && frame.message === 'READY');
    await joined;
    expect((await left).username).toBe(bob.user.username);
    expect(await silent.closed()).toBe(1006);
    a.close();
  });

  it('closes a socket when its token expires', async () => {
    // the server's clock stands still while the login and the join are made, then moves to just before the
    // token's end: the socket is accepted 200 ms before it, however long the login took on a loaded machine.
    // It starts on a whole second, as a token's times are in whole seconds.
    let now = Math.floor(Date.now() / 1000) * 1000;
    const short = await startServer({ SESSION_TTL_SECONDS: '3' }, { clock: { now: () => now } });
    try {
      const login = await guestLogin(short.app);
      const { sessionId, roomId: room } = await joinRoom(short.app, login.token, null);
      now += 2800;
      const client = await TestClient.open(`${short.wsBase}/xtalk_ws/${sessionId}?t=${login.token}`);
      client.send({ type: 'setUsername', username: login.user.username, language: 'en', room });
      expect(await client.closed(6000)).toBe(4001);
      now += 1000;
      const me = await short.app.inject({
        method: 'GET',
        url: '/api/me',
        headers: { authorization: `Bearer ${login.token}` },
      });
      expect(me.statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });
});

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PROTOCOL_VERSION,
  parseClientFrame,
  type ErrorFrame,
  type GuestLoginResponse,
  type ServerFrame,
} from '@xtalk/protocol';
import { createTokens } from '../accounts/index.js';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';

/*
 * The WebSocket bad-input corpus: malformed, oversized, deeply nested, wrong-typed, unknown and
 * out-of-order frames, junk binary, forged and expired tokens, foreign origins; listed and generated
 * (fast-check). Each frame gets its error frame, the socket stays open, and nothing is stored. The frame
 * limits are lifted here: this is about the answers (the limits have their own tests).
 */

const SECRET = 'bad-frames-secret-that-is-long-enough-to-sign';
let server: TestServer;
let alice: GuestLoginResponse;
let roomId: string;

beforeAll(async () => {
  server = await startServer({
    AUTH_SECRET: SECRET,
    WS_FRAMES_PER_SECOND: '100000',
    WS_FRAME_BURST: '100000',
    WS_INVALID_PER_SECOND: '100000',
    WS_INVALID_BURST: '100000',
    WS_CONTROL_PER_SECOND: '100000',
    WS_CONTROL_BURST: '100000',
  });
  alice = await guestLogin(server.app);
  roomId = (await joinRoom(server.app, alice.token, null)).roomId;
}, 60_000);
afterAll(() => server.close());

const storedMessages = async () =>
  (await server.app.xtalkRooms.repo.listMessages(roomId, 100)).map((frame) => frame.message);

async function openSocket() {
  const { sessionId } = await joinRoom(server.app, alice.token, roomId);
  return TestClient.open(`${server.wsBase}/xtalk_ws/${sessionId}?t=${alice.token}`);
}

/** Sends a frame and resolves with the error frame that answers it. */
async function answer(client: TestClient, frame: unknown, binary = false): Promise<ErrorFrame> {
  const next = client.nextNew<ErrorFrame>((received) => received.type === 'error');
  if (binary) client.ws.send(frame as Uint8Array, { binary: true });
  else client.send(frame);
  return next.catch(() => {
    const shown = binary ? 'a binary frame' : JSON.stringify(frame).slice(0, 100);
    throw new Error(
      `no error frame answered ${shown}; last frames: ${JSON.stringify(client.frames.slice(-2))}`,
    );
  });
}

const chat = (fields: Record<string, unknown> = {}) => ({
  type: 'chat',
  language: 'en',
  message: 'hello',
  room: roomId,
  ...fields,
});

describe('listed bad frames', { timeout: 60_000 }, () => {
  it('answers each with its error, keeps the socket open and stores nothing', async () => {
    const client = await openSocket();
    const hello = () => ({
      type: 'setUsername',
      // required once the versioned handshake lands; ignored before
      protocolVersion: PROTOCOL_VERSION,
      username: alice.user.username,
      language: 'en',
      room: roomId,
    });
    // out of order: before setUsername
    expect((await answer(client, chat())).code).toBe('not_joined');
    expect((await answer(client, Buffer.from('OggS junk'), true)).code).toBe('not_joined');
    // a setUsername that is not ours
    expect((await answer(client, { ...hello(), username: 'someone-else' })).code).toBe('forbidden');
    expect((await answer(client, { ...hello(), room: 'ZZZZZZZ' })).code).toBe('wrong_room');
    expect((await answer(client, { ...hello(), language: 'xx' })).code).toBe('unsupported_language');
    client.send(hello());
    await client.next((frame) => frame.type === 'system' && frame.message === 'READY');

    const cases: [unknown, ErrorFrame['code']][] = [
      ['{', 'bad_frame'],
      ['', 'bad_frame'],
      ['null', 'bad_frame'],
      ['[1,2,3]', 'bad_frame'],
      ['42', 'bad_frame'],
      ['"chat"', 'bad_frame'],
      ['\u0000\u0001binary-looking text', 'bad_frame'],
      [{ type: 'dance' }, 'bad_frame'],
      [{ type: 'chat' }, 'bad_frame'],
      [{ message: 'no type' }, 'bad_frame'],
      [chat({ language: 5 }), 'bad_frame'],
      [chat({ room: ['array'] }), 'bad_frame'],
      [chat({ message: 42 }), 'message_invalid'],
      [chat({ message: 'a'.repeat(2001) }), 'message_invalid'],
      [chat({ message: 'x'.repeat(1024 * 1024) }), 'message_invalid'],
      [chat({ message: 'nul\u0000inside' }), 'message_invalid'],
      [chat({ message: 'broken \uD800 surrogate' }), 'message_invalid'],
      [chat({ message: '\u200B\u200B\u200B' }), 'message_invalid'],
      [chat({ message: '   ' }), 'message_invalid'],
      [chat({ room: 'ZZZZZZZ' }), 'wrong_room'],
      [chat({ language: 'xx' }), 'unsupported_language'],
      [
        `{"type":"chat","language":"en","message":"hi","room":"${roomId}","extra":` +
          '['.repeat(5000) +
          ']'.repeat(5000) +
          '}',
        'bad_frame',
      ],
      ['['.repeat(5000) + ']'.repeat(5000), 'bad_frame'],
      [{ type: 'updateUsername', username: 'not-me', displayUsername: 'Not Me' }, 'forbidden'],
      [{ type: 'setLanguage', language: 'en', room: 'ZZZZZZZ' }, 'wrong_room'],
    ];
    for (const [frame, code] of cases) {
      const error = await answer(client, frame);
      expect(error.code, JSON.stringify(frame).slice(0, 80)).toBe(code);
      expect(error.message.length).toBeGreaterThan(0);
    }
    // junk binary after joining: not a voice clip
    expect((await answer(client, Buffer.from([0, 1, 2, 3, 255]), true)).code).toBe('audio_rejected');

    // still open and working; nothing of the above was stored
    expect(await storedMessages()).toEqual([]);
    client.send(chat({ message: 'still here' }));
    await client.next((frame) => frame.type === 'message' && frame.message === 'still here');
    expect(await storedMessages()).toEqual(['still here']);
    client.close();
  }, 60_000);

  it('closes a frame over the size limit with 1009, and the server goes on', async () => {
    const client = await openSocket();
    client.ws.send(Buffer.alloc(3 * 1024 * 1024, 0x61), { binary: false });
    expect(await client.closed()).toBe(1009);
    const after = await TestClient.join(server, alice, roomId);
    after.close();
  }, 60_000);

  it('refuses forged and expired tokens and foreign origins before the upgrade', async () => {
    const { sessionId } = await joinRoom(server.app, alice.token, roomId);
    const status = (url: string, headers: Record<string, string> = {}) =>
      TestClient.open(url, { headers }).then(
        (client) => {
          client.close();
          return 101;
        },
        (error: { statusCode?: number }) => error.statusCode,
      );
    const base = `${server.wsBase}/xtalk_ws/${sessionId}`;
    const past = Date.now() - 2 * 43_200_000;
    const expired = await createTokens(SECRET, 43_200, { now: () => past }).sign({
      userId: alice.user.userId,
      provider: 'guest',
      platformPlayerId: alice.player.platformPlayerID,
    });
    const [header, payload] = alice.token.split('.');
    expect(await status(`${base}?t=${expired.token}`)).toBe(401);
    expect(await status(`${base}?t=${header}.${payload}.forgedsignature`)).toBe(401);
    expect(await status(`${base}?t=%00%ff`)).toBe(401);
    expect(await status(`${base}?t=${alice.token}`, { origin: 'https://evil.example' })).toBe(403);
    expect(await status(`${base}?t=${alice.token}`)).toBe(101);
  }, 60_000);
});

describe('generated bad frames (fast-check)', { timeout: 60_000 }, () => {
  const nasty = fc.string({
    unit: fc.oneof(
      fc.constantFrom('\u0000', '\uD800', '\uDFFF', '\u200B', '\u202E', '"', '{', '['),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
    maxLength: 30,
  });
  const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      nasty,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(nasty, tie('value'), { maxKeys: 3 }),
    ),
  })).value;
  const knownType = fc.constantFrom('chat', 'setUsername', 'setLanguage', 'updateUsername');
  /** A frame of a known type with one field replaced by anything. */
  const mutated = fc
    .tuple(knownType, fc.constantFrom('language', 'message', 'room', 'username', 'displayUsername'), value)
    .map(([type, field, junk]) => JSON.stringify({ ...chat(), type, [field]: junk }));
  const rejected = fc
    .oneof(
      nasty,
      value.map((v) => JSON.stringify(v)),
      mutated,
    )
    .filter((text) => !parseClientFrame(text).ok);

  it('answers every generated invalid frame and junk binary with an error, and stores nothing', async () => {
    const client = await TestClient.join(server, alice, roomId);
    const before = await storedMessages();
    await fc.assert(
      fc.asyncProperty(rejected, async (text) => {
        const error = await answer(client, text);
        expect(['bad_frame', 'message_invalid']).toContain(error.code);
      }),
      { numRuns: 150, seed: 16 },
    );
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 4096 }), async (bytes) => {
        const error = await answer(client, Buffer.from(bytes), true);
        expect(['audio_rejected', 'rate_limited']).toContain(error.code);
      }),
      { numRuns: 20, seed: 16 },
    );
    expect(client.closeCode).toBeUndefined();
    expect(await storedMessages()).toEqual(before);
    const seen = new Set<ServerFrame>(client.frames);
    client.send(chat({ message: 'after the storm' }));
    await client.next(
      (frame) => !seen.has(frame) && frame.type === 'message' && frame.message === 'after the storm',
    );
    client.close();
  }, 60_000);
});

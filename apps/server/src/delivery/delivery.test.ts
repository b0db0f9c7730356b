import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CloseCode,
  PROTOCOL_VERSION,
  type GuestLoginResponse,
  type MessageFrame,
  type ServerFrame,
  type SystemFrame,
} from '@xtalk/protocol';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';

/*
 * Offsets, epochs and resume (docs/decisions/0061-room-offsets-and-epochs.md), idempotent client ids and
 * the versioned handshake (decision 0060), on the real server.
 */

const isReady = (frame: ServerFrame) => frame.type === 'system' && frame.message === 'READY';
const isMessage = (text: string) => (frame: ServerFrame) =>
  frame.type === 'message' && frame.message === text;
const offsetOf = (frame: ServerFrame) => (frame as { offset?: number }).offset;

async function connect(
  server: TestServer,
  login: GuestLoginResponse,
  roomId: string,
  hello: Record<string, unknown> = {},
) {
  const session = await joinRoom(server.app, login.token, roomId);
  const client = await TestClient.open(`${server.wsBase}/xtalk_ws/${session.sessionId}?t=${login.token}`);
  client.send({
    type: 'setUsername',
    username: login.user.username,
    language: 'en',
    room: roomId,
    protocolVersion: PROTOCOL_VERSION,
    ...hello,
  });
  return client;
}

async function join(
  server: TestServer,
  login: GuestLoginResponse,
  roomId: string,
  hello: Record<string, unknown> = {},
) {
  const client = await connect(server, login, roomId, hello);
  const ready = await client.next<SystemFrame>(isReady);
  return { client, ready };
}

describe('delivery', () => {
  let server: TestServer;
  let alice: GuestLoginResponse;
  let bob: GuestLoginResponse;

  beforeAll(async () => {
    // one language: nothing to translate, so the offsets here are the messages' alone
    server = await startServer({ RESUME_MAX_EVENTS: '5', LANGUAGES: 'en' });
    [alice, bob] = await Promise.all([guestLogin(server.app), guestLogin(server.app)]);
  });
  afterAll(() => server.close());

  it('numbers every stored message 1, 2, 3 and READY carries the epoch and the latest offset', async () => {
    const { roomId } = await joinRoom(server.app, alice.token, null);
    const { client, ready } = await join(server, alice, roomId);
    expect(ready).toMatchObject({ offset: 0, protocolVersion: PROTOCOL_VERSION });
    expect(ready.epoch).toMatch(/^[0-9a-f]{12}$/);
    for (const text of ['one', 'two', 'three']) {
      client.send({ type: 'chat', language: 'en', message: text, room: roomId, clientId: `c-${text}` });
    }
    const three = await client.next<MessageFrame>(isMessage('three'));
    expect(client.messages().map(offsetOf)).toEqual([1, 2, 3]);
    expect(three.clientId).toBe('c-three');
    client.close();
    const again = await join(server, bob, roomId);
    expect(again.ready).toMatchObject({ epoch: ready.epoch, offset: 3 });
    again.client.close();
  });

  it('resumes with exactly what was missed, in order, then live frames', async () => {
    const { roomId } = await joinRoom(server.app, alice.token, null);
    const a = await join(server, alice, roomId);
    const b = await join(server, bob, roomId);
    a.client.send({ type: 'chat', language: 'en', message: 'seen', room: roomId });
    await b.client.next(isMessage('seen'));
    const position = { epoch: b.ready.epoch!, offset: offsetOf(b.client.messages().at(-1)!)! };
    b.client.close();
    for (const text of ['missed 1', 'missed 2']) {
      a.client.send({ type: 'chat', language: 'en', message: text, room: roomId });
      await a.client.next(isMessage(text));
    }
    const resumed = await join(server, bob, roomId, { resume: position });
    const beforeReady = resumed.client.frames.slice(0, resumed.client.frames.indexOf(resumed.ready));
    expect(beforeReady.map((frame) => (frame as MessageFrame).message)).toEqual(['missed 1', 'missed 2']);
    expect(beforeReady.map(offsetOf)).toEqual([position.offset + 1, position.offset + 2]);
    expect(resumed.ready.offset).toBe(position.offset + 2);
    a.client.send({ type: 'chat', language: 'en', message: 'live', room: roomId });
    const live = await resumed.client.next<MessageFrame>(isMessage('live'));
    expect(live.offset).toBe(position.offset + 3);
    expect(resumed.client.messages()).toHaveLength(3);
    a.client.close();
    resumed.client.close();
  });

  it('says RESYNC and sends the recent window when too far behind or of another epoch', async () => {
    const { roomId } = await joinRoom(server.app, alice.token, null);
    const a = await join(server, alice, roomId);
    for (let n = 1; n <= 7; n++) {
      a.client.send({ type: 'chat', language: 'en', message: `m${n}`, room: roomId });
    }
    await a.client.next(isMessage('m7'));
    // RESUME_MAX_EVENTS is 5: 7 behind is too far
    const far = await join(server, bob, roomId, { resume: { epoch: a.ready.epoch, offset: 0 } });
    expect(far.client.frames[0]).toMatchObject({ type: 'system', message: 'RESYNC', offset: 7 });
    expect(far.client.messages().map((frame) => (frame as MessageFrame).message)).toEqual([
      'm1',
      'm2',
      'm3',
      'm4',
      'm5',
      'm6',
      'm7',
    ]);
    far.client.close();
    const otherEpoch = await join(server, bob, roomId, { resume: { epoch: 'reset', offset: 6 } });
    expect(otherEpoch.client.frames[0]).toMatchObject({ type: 'system', message: 'RESYNC' });
    expect(otherEpoch.client.messages()).toHaveLength(7);
    otherEpoch.client.close();
    const near = await join(server, bob, roomId, { resume: { epoch: a.ready.epoch, offset: 6 } });
    expect(near.client.frames.map((frame) => frame.type)).toEqual(['message', 'system']);
    near.client.close();
    a.client.close();
  });

  it('stores a resent client id once and answers the resend with the stored message', async () => {
    const { roomId } = await joinRoom(server.app, alice.token, null);
    const a = await join(server, alice, roomId);
    const b = await join(server, bob, roomId);
    const frame = { type: 'chat', language: 'en', message: 'only once', room: roomId, clientId: 'k-1' };
    a.client.send(frame);
    const original = await a.client.next<MessageFrame>(isMessage('only once'));
    a.client.close();
    // the sender did not see the acknowledgement (a drop) and sends it again on a new socket
    const again = await join(server, alice, roomId, {
      resume: { epoch: a.ready.epoch, offset: original.offset! },
    });
    again.client.send(frame);
    const answer = await again.client.next<MessageFrame>(isMessage('only once'));
    expect(answer).toEqual(original);
    again.client.send({ type: 'chat', language: 'en', message: 'next', room: roomId });
    await b.client.next(isMessage('next'));
    expect(b.client.messages().filter((m) => (m as MessageFrame).message === 'only once')).toHaveLength(1);
    const late = await join(server, bob, roomId);
    expect(late.client.messages().map((m) => (m as MessageFrame).message)).toEqual(['only once', 'next']);
    for (const client of [again.client, b.client, late.client]) client.close();
  });

  it('serves a client without protocolVersion as version 1 and refuses an unknown version with 4400', async () => {
    const { roomId } = await joinRoom(server.app, alice.token, null);
    const old = await TestClient.join(server, alice, roomId);
    old.close();
    const future = await connect(server, alice, roomId, { protocolVersion: PROTOCOL_VERSION + 1 });
    expect(await future.closed()).toBe(CloseCode.UnsupportedVersion);
    const error = await future.next((frame) => frame.type === 'error');
    expect(error).toMatchObject({ code: 'bad_frame', message: expect.stringMatching(/please reload/) });
  });
});

describe('later changes to a message', () => {
  it('are logged at their own offsets and replayed to a client that resumes', async () => {
    const server = await startServer();
    try {
      const [alice, bob] = await Promise.all([guestLogin(server.app), guestLogin(server.app)]);
      const { roomId } = await joinRoom(server.app, alice.token, null);
      const a = await join(server, alice, roomId);
      a.client.send({ type: 'chat', language: 'en', message: 'translate me', room: roomId });
      const message = await a.client.next<MessageFrame>(isMessage('translate me'));
      const complete = await a.client.next((frame) => frame.type === 'translationComplete');
      expect(offsetOf(complete)).toBeGreaterThan(message.offset!);
      const resumed = await join(server, bob, roomId, {
        resume: { epoch: a.ready.epoch, offset: message.offset },
      });
      const replayed = resumed.client.frames.slice(0, resumed.client.frames.indexOf(resumed.ready));
      expect(replayed).toContainEqual(complete);
      const offsets = replayed.map(offsetOf);
      expect(offsets).toEqual(offsets.map((_, i) => message.offset! + 1 + i));
      expect(resumed.ready.offset).toBe(message.offset! + replayed.length);
      a.client.close();
      resumed.client.close();
    } finally {
      await server.close();
    }
  });
});

describe('a server that requires the current version', () => {
  it('refuses a client that sends no version', async () => {
    const server = await startServer({ MIN_PROTOCOL_VERSION: String(PROTOCOL_VERSION) });
    try {
      const login = await guestLogin(server.app);
      const { roomId } = await joinRoom(server.app, login.token, null);
      const old = await connect(server, login, roomId, { protocolVersion: undefined });
      expect(await old.closed()).toBe(CloseCode.UnsupportedVersion);
      const current = await join(server, login, roomId);
      expect(current.ready.protocolVersion).toBe(PROTOCOL_VERSION);
      current.client.close();
    } finally {
      await server.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { CloseCode, PROTOCOL_VERSION, type MessageFrame, type ServerFrame } from '@xtalk/protocol';
import { displayNameOf, type UserRow } from '../accounts/users/users-repo.js';
import { createMemoryBus } from '../bus/bus.js';
import { createChatService, type PostMessage } from '../rooms/chat-service.js';
import type { RoomsRepo, StoredMessage } from '../rooms/rooms-repo.js';
import { createConnection, type ConnectionContext, type ConnectionDeps } from './connection.js';
import type { PeerSocket } from './peer-socket.js';
import { createMemoryPresence } from './presence.js';
import { createRoomHub } from './room-hub.js';

/*
 * The connection's frame handling (spec section 7) against fake sockets: several peers of one room on a real
 * hub and memory bus, a message store in a map, no network. The rate limit is in connection.test.ts.
 */

const ROOM = 'ABCDEFG';
const quiet = { child: () => quiet, info() {}, warn() {}, error() {}, debug() {} };
const logger = quiet as unknown as FastifyBaseLogger;

function userRow(n: number): UserRow {
  return {
    id: `u${n}`,
    provider: 'guest',
    subject: `s${n}`,
    username: `g-${n}`,
    display_name: null,
    name: '',
  };
}

/** A fake socket that records what the connection sends; `bufferedAmount` is set by the test. */
class FakeSocket implements PeerSocket {
  readonly frames: ServerFrame[] = [];
  readonly binary: Uint8Array[] = [];
  closed: { code: number; reason: string } | undefined;
  bufferedAmount = 0;
  sendText(data: string | Buffer) {
    this.frames.push(JSON.parse(data.toString()) as ServerFrame);
  }
  sendBinary(data: Uint8Array) {
    this.binary.push(data);
  }
  sendTextThenBinary(text: Buffer, binary: Buffer) {
    this.sendText(text);
    this.sendBinary(binary);
  }
  close(code: number, reason: string) {
    this.closed = { code, reason };
  }
  errors() {
    return this.frames.filter((frame) => frame.type === 'error');
  }
}

/** One room: a stored history, the real hub and chat service, and peers joining it. */
function room(
  options: { history?: MessageFrame[]; onAudio?: ConnectionDeps['onAudio']; logger?: FastifyBaseLogger } = {},
) {
  const stored: MessageFrame[] = [...(options.history ?? [])];
  const users = new Map<string, UserRow>();
  const hub = createRoomHub(createMemoryBus());
  let beforeReplay: () => Promise<void> = async () => undefined;
  const repo = {
    async insertMessage(input: PostMessage): Promise<StoredMessage> {
      const id = (stored.at(-1)?.id ?? 0) + 1;
      const { roomId: _room, userId: _user, text, ...rest } = input;
      // offsets as the room log gives them: 1, 2, 3... in the order messages are stored
      const message: MessageFrame = {
        type: 'message',
        id,
        timestamp: id,
        message: text,
        translations: {},
        isTutorial: false,
        offset: stored.length + 1,
        ...rest,
      };
      stored.push(message);
      return { message, duplicate: false, roomId: ROOM };
    },
    async findByClientId() {
      return undefined;
    },
    async listMessages() {
      await beforeReplay();
      return [...stored];
    },
    async renameAuthor() {},
  } as unknown as RoomsRepo;
  const deps: ConnectionDeps = {
    hub,
    presence: createMemoryPresence(),
    chat: createChatService(repo, { broadcast: hub.broadcast }, logger),
    rooms: repo,
    users: { findById: async (id: string) => users.get(id) } as unknown as ConnectionDeps['users'],
    languages: ['en', 'ja'],
    clock: { now: () => 1_000 },
    logger: options.logger ?? logger,
    replayLimit: 100,
    // the room log's position is the stored count; every joiner here gets the recent window
    log: { position: async () => ({ epoch: 'e1', offset: stored.length }), readSince: async () => [] },
    resumeMaxEvents: 1000,
    maxBufferedBytes: 1000,
    onAudio: options.onAudio,
  };

  function peer(n: number) {
    const user = userRow(n);
    users.set(user.id, user);
    const socket = new FakeSocket();
    const connection = createConnection(socket, { roomId: ROOM }, user, deps);
    const send = (frame: object) => connection.onText(JSON.stringify(frame));
    return {
      user,
      socket,
      connection,
      send,
      async join(language = 'en') {
        send({ type: 'setUsername', username: user.username, language, room: ROOM });
        await connection.settled();
      },
      async chat(message: string, language = 'en') {
        send({ type: 'chat', language, message, room: ROOM });
        await connection.settled();
      },
    };
  }
  return {
    peer,
    users,
    stored,
    hub,
    /** Runs `work` while the next replay query is in flight (a message stored during the replay). */
    duringReplay(work: () => Promise<void>) {
      beforeReplay = async () => {
        beforeReplay = async () => undefined;
        await work();
      };
    },
  };
}

const types = (frames: ServerFrame[]) => frames.map((frame) => frame.type);

describe('connection: frames before joining', () => {
  it('answers bad frames with an error frame and stays open', async () => {
    const { socket, connection } = room().peer(1);
    connection.onText('{not json');
    connection.onText(JSON.stringify({ type: 'dance', room: ROOM }));
    connection.onText(JSON.stringify({ type: 'chat', language: 'en', message: '', room: ROOM }));
    await connection.settled();
    expect(socket.errors().map((frame) => frame.type === 'error' && frame.code)).toEqual([
      'bad_frame',
      'bad_frame',
      'message_invalid',
    ]);
    expect(socket.closed).toBeUndefined();
  });

  it('refuses chat and audio until the client has joined', async () => {
    const calls: string[] = [];
    const alice = room({ onAudio: async () => void calls.push('audio') }).peer(1);
    await alice.chat('too early');
    alice.connection.onBinary(Buffer.from('OggS'));
    await alice.connection.settled();
    expect(alice.socket.errors()).toEqual([
      { type: 'error', code: 'not_joined', message: 'Send setUsername before chatting.' },
      { type: 'error', code: 'not_joined', message: 'Send setUsername before sending audio.' },
    ]);
    expect(calls).toEqual([]);
  });

  it('joins only as the logged-in user, in this room, in a supported language', async () => {
    const alice = room().peer(1);
    const attempt = async (frame: object) => {
      alice.send({
        type: 'setUsername',
        username: alice.user.username,
        language: 'en',
        room: ROOM,
        ...frame,
      });
      await alice.connection.settled();
      const last = alice.socket.frames.at(-1);
      return last?.type === 'error' ? last.code : last?.type;
    };
    expect(await attempt({ username: 'g-2' })).toBe('forbidden');
    expect(await attempt({ room: 'OTHERRM' })).toBe('wrong_room');
    expect(await attempt({ language: 'fr' })).toBe('unsupported_language');
    expect(alice.socket.frames.some((frame) => frame.type === 'system')).toBe(false);
    // the room code is matched the way people type it
    expect(await attempt({ room: ' abcdefg ' })).toBe('system');
  });
});

describe('connection: joining', () => {
  it('replays the history, then READY, then what was said meanwhile, each message once', async () => {
    const history = room();
    const bob = history.peer(2);
    await bob.join();
    await bob.chat('before');
    const alice = history.peer(1);
    // bob speaks while alice's replay query runs: it is in the replay query's result and arrives live
    // too. The room position (offset 1) was read first, so it comes once, live, after READY.
    history.duringReplay(() => bob.chat('during'));
    await alice.join();
    await bob.chat('after');
    expect(
      alice.socket.frames.map((frame) => (frame.type === 'message' ? frame.message : frame.type)),
    ).toEqual(['before', 'system', 'during', 'after']);
    expect(alice.socket.frames[1]).toEqual({
      type: 'system',
      message: 'READY',
      timestamp: 1_000,
      roomId: ROOM,
      protocolVersion: PROTOCOL_VERSION,
      epoch: 'e1',
      offset: 1,
      // protocol 3: the languages a listener may pick, and the edit window (none configured here)
      languages: ['en', 'ja'],
      editWindowSeconds: 0,
    });
  });

  it('announces a join and a leave to the others, and no leave when the server shuts down', async () => {
    const { peer } = room();
    const alice = peer(1);
    const bob = peer(2);
    const carol = peer(3);
    await alice.join();
    await bob.join();
    await carol.join();
    const events = (socket: FakeSocket) =>
      socket.frames.flatMap((frame) =>
        frame.type === 'system' && frame.message !== 'READY' ? [`${frame.message} ${frame.username}`] : [],
      );
    expect(events(alice.socket)).toEqual(['JOIN g-2', 'JOIN g-3']);
    expect(events(bob.socket)).toEqual(['JOIN g-3']);
    await bob.connection.onClose(true);
    await carol.connection.onClose(false);
    expect(events(alice.socket)).toEqual(['JOIN g-2', 'JOIN g-3', 'LEAVE g-2']);
    // closed connections send nothing more
    await alice.chat('anyone?');
    expect(bob.socket.frames.some((frame) => frame.type === 'message')).toBe(false);
  });

  it('a repeated setUsername only changes the language', async () => {
    const alice = room().peer(1);
    await alice.join('en');
    await alice.join('ja');
    expect(alice.socket.frames.filter((frame) => frame.type === 'system')).toHaveLength(1);
    expect(alice.connection.context.language()).toBe('ja');
  });
});

describe('connection: in the room', () => {
  it('chats in the room it is for and in supported languages only', async () => {
    const { peer, stored } = room();
    const alice = peer(1);
    await alice.join();
    await alice.chat('hello');
    alice.send({ type: 'chat', language: 'en', message: 'elsewhere', room: 'OTHERRM' });
    await alice.chat('bonjour', 'fr');
    await alice.connection.settled();
    expect(stored.map((message) => message.message)).toEqual(['hello']);
    expect(alice.socket.errors().map((frame) => frame.type === 'error' && frame.code)).toEqual([
      'wrong_room',
      'unsupported_language',
    ]);
  });

  it('delivers spoken audio in the listening language, which setLanguage changes', async () => {
    const { peer, hub } = room();
    const alice = peer(1);
    const bob = peer(2);
    await alice.join('en');
    await bob.join('en');
    await hub.sendAudio(ROOM, 'ja', new Uint8Array([1]), alice.user.username);
    bob.send({ type: 'setLanguage', language: 'ja', room: ROOM });
    alice.send({ type: 'setLanguage', language: 'ja', room: ROOM });
    await bob.connection.settled();
    await alice.connection.settled();
    await hub.sendAudio(ROOM, 'ja', new Uint8Array([2]), alice.user.username);
    expect(bob.socket.binary).toEqual([Buffer.from([2])]);
    // the author never hears their own message spoken
    expect(alice.socket.binary).toEqual([]);
  });

  it('hands binary frames to the voice input with the connection context, in order with text frames', async () => {
    const seen: string[] = [];
    const { peer } = room({
      onAudio: async (context: ConnectionContext, data: Buffer) => {
        seen.push(`${context.username()} ${context.language()} ${data.toString()}`);
        context.sendFrame({ type: 'error', code: 'no_speech', message: 'No speech detected' });
      },
    });
    const alice = peer(1);
    await alice.join('ja');
    alice.connection.onBinary(Buffer.from('clip'));
    alice.send({ type: 'setLanguage', language: 'en', room: ROOM });
    alice.connection.onBinary(Buffer.from('clip2'));
    await alice.connection.settled();
    expect(seen).toEqual(['g-1 ja clip', 'g-1 en clip2']);
    expect(alice.socket.errors()).toHaveLength(2);
  });

  it('says voice is not supported when the server has no voice input', async () => {
    const alice = room().peer(1);
    await alice.join();
    alice.connection.onBinary(Buffer.from('OggS'));
    expect(alice.socket.errors()).toEqual([
      {
        type: 'error',
        code: 'audio_rejected',
        message: 'Voice messages are not supported by this server yet.',
      },
    ]);
  });

  it('turns a failing frame into an internal error and keeps handling the next ones', async () => {
    const { peer, stored } = room({
      onAudio: async () => {
        throw new Error('decoder exploded');
      },
    });
    const alice = peer(1);
    await alice.join();
    alice.connection.onBinary(Buffer.from('clip'));
    await alice.chat('still here');
    expect(alice.socket.errors()).toEqual([
      { type: 'error', code: 'internal', message: 'Something went wrong on the server; please try again.' },
    ]);
    expect(stored.map((message) => message.message)).toEqual(['still here']);
    expect(alice.socket.closed).toBeUndefined();
  });

  it('renames only to the username saved in the profile, and tells the room', async () => {
    const { peer, users } = room();
    const alice = peer(1);
    const bob = peer(2);
    await alice.join();
    await bob.join();
    alice.send({ type: 'updateUsername', username: 'g-9', displayUsername: 'Mallory' });
    await alice.connection.settled();
    expect(alice.socket.errors().map((frame) => frame.type === 'error' && frame.code)).toEqual(['forbidden']);
    users.set('u1', { ...alice.user, display_name: 'Alice' });
    alice.send({ type: 'updateUsername', username: 'g-1', displayUsername: 'Alice' });
    await alice.connection.settled();
    expect(bob.socket.frames.filter((frame) => frame.type === 'usernameUpdate')).toEqual([
      {
        type: 'usernameUpdate',
        username: 'g-1',
        displayUsername: 'Alice',
        oldDisplayUsername: displayNameOf(alice.user),
      },
    ]);
    expect(alice.connection.context.displayUsername()).toBe('Alice');
  });

  it('drops a peer that stopped reading instead of buffering for it', async () => {
    const { peer } = room();
    const alice = peer(1);
    const bob = peer(2);
    await alice.join();
    await bob.join();
    bob.socket.bufferedAmount = 5_000;
    await alice.chat('are you there?');
    expect(bob.socket.closed).toEqual({ code: CloseCode.PolicyViolation, reason: 'Too slow to keep up.' });
    expect(types(bob.socket.frames)).not.toContain('message');
  });

  it('says a few times, not once per frame, that it drops a peer that stopped reading', async () => {
    const lines: string[] = [];
    const recording = {
      ...quiet,
      child: () => recording,
      warn: (...args: unknown[]) => void lines.push(String(args.at(-1))),
    };
    const { peer, hub } = room({ logger: recording as unknown as FastifyBaseLogger });
    const bob = peer(2);
    await bob.join();
    bob.socket.bufferedAmount = 5_000; // and its close never completes: every frame finds it stuck
    for (let i = 0; i < 200; i++)
      await hub.broadcast(ROOM, { type: 'system', message: 'JOIN', timestamp: i, username: `u${i}` });
    const dropped = lines.filter((line) => line === 'dropping a connection that stopped reading');
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped.length).toBeLessThanOrEqual(3);
  });
});

describe('connection: room frames by protocol version', () => {
  it('delivers a room frame as served to current clients, and to older ones only in a form they read', async () => {
    const { peer, hub } = room();
    const clients = [1, 3, PROTOCOL_VERSION].map((version, index) => {
      const client = peer(index + 1);
      const join = { type: 'setUsername', username: client.user.username, language: 'en', room: ROOM };
      client.send(version > 1 ? { ...join, protocolVersion: version } : join);
      return { version, client };
    });
    await Promise.all(clients.map(({ client }) => client.connection.settled()));
    // a failed translation, then a message: everyone gets the message; only a client that knows the
    // failure frame (version 4) gets that, and before the message
    await hub.broadcast(ROOM, { type: 'translationFailed', originalTimestamp: 7, targetLanguage: 'ja' });
    await clients[0]!.client.chat('after the failure');
    for (const { version, client } of clients) {
      await expect
        .poll(() => client.socket.frames.some((frame) => frame.type === 'message'), { timeout: 2000 })
        .toBe(true);
      const seen = types(client.socket.frames).filter((type) => type !== 'system');
      expect(seen, `version ${version}`).toEqual(
        version >= 4 ? ['translationFailed', 'message'] : ['message'],
      );
    }
    expect(clients[2]!.client.socket.frames.find((frame) => frame.type === 'translationFailed')).toEqual({
      type: 'translationFailed',
      originalTimestamp: 7,
      targetLanguage: 'ja',
    });
  });
});

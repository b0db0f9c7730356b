import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerFrame } from '@xtalk/protocol';
import type { UserRow } from '../accounts/users/users-repo.js';
import { createMemoryBus } from '../bus/bus.js';
import type { ChatService, PostMessage } from '../rooms/chat-service.js';
import type { RoomsRepo } from '../rooms/rooms-repo.js';
import { createConnection, type ConnectionDeps } from './connection.js';
import type { PeerSocket } from './peer-socket.js';
import { createMemoryPresence } from './presence.js';
import { createRoomHub } from './room-hub.js';

/* The connection's protocol logic against a fake socket: no network, a clock the test moves. */

const silent = {
  child: () => silent,
  info() {},
  warn() {},
  error() {},
  debug() {},
} as unknown as FastifyBaseLogger;
const user: UserRow = {
  id: 'u1',
  provider: 'guest',
  subject: 's1',
  username: 'g-1',
  display_name: null,
  name: '',
};
const ROOM = 'ABCDEFG';

function setup() {
  const clock = {
    t: 1_000_000,
    now() {
      return this.t;
    },
  };
  const sent: ServerFrame[] = [];
  const socket: PeerSocket = {
    sendText: (data) => sent.push(JSON.parse(data.toString())),
    sendBinary: () => undefined,
    sendTextThenBinary: () => undefined,
    close: () => undefined,
    bufferedAmount: 0,
  };
  const posted: PostMessage[] = [];
  let release: () => void = () => undefined;
  let stalled = Promise.resolve();
  const chat = {
    async post(input: PostMessage) {
      await stalled;
      posted.push(input);
      const message = {
        type: 'message',
        id: posted.length,
        timestamp: posted.length,
        translations: {},
        isTutorial: false,
        ...input,
      };
      return { message, duplicate: false, roomId: ROOM };
    },
  } as unknown as ChatService;
  const deps: ConnectionDeps = {
    hub: createRoomHub(createMemoryBus()),
    presence: createMemoryPresence(),
    chat,
    rooms: { listMessages: async () => [] } as unknown as RoomsRepo,
    log: { position: async () => ({ epoch: 'e1', offset: 0 }), readSince: async () => [] },
    resumeMaxEvents: 1000,
    users: { findById: async () => user } as unknown as ConnectionDeps['users'],
    languages: ['en', 'ja'],
    clock,
    logger: silent,
    replayLimit: 100,
    maxBufferedBytes: 1 << 20,
  };
  const connection = createConnection(socket, { roomId: ROOM }, user, deps);
  return {
    clock,
    sent,
    posted,
    connection,
    stall() {
      stalled = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
    frame: (frame: object) => connection.onText(JSON.stringify(frame)),
    deps,
  };
}

const chatFrame = (n: number) => ({ type: 'chat', language: 'en', message: `m${n}`, room: ROOM });

describe('connection rate limit', () => {
  it('refuses a burst beyond 8 frames', async () => {
    const t = setup();
    t.frame({ type: 'setUsername', username: 'g-1', language: 'en', room: ROOM });
    for (let i = 0; i < 12; i++) t.frame(chatFrame(i));
    await t.connection.settled();
    expect(t.posted).toHaveLength(8);
    expect(t.sent.filter((frame) => frame.type === 'error' && frame.code === 'rate_limited')).toHaveLength(4);
  });

  it('does not punish a steady client for a server stall', async () => {
    const t = setup();
    t.frame({ type: 'setUsername', username: 'g-1', language: 'en', room: ROOM });
    await t.connection.settled();
    t.stall();
    // 20 frames at 1 per second (half the sustained limit) arrive while storing is stuck
    for (let i = 0; i < 20; i++) {
      t.frame(chatFrame(i));
      t.clock.t += 1000;
    }
    t.release();
    await t.connection.settled();
    expect(t.sent.filter((frame) => frame.type === 'error')).toEqual([]);
    expect(t.posted.map((p) => p.text)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`));
  });
});

describe('a connection at rest', () => {
  it('makes no child logger while it has nothing to log (a few hundred bytes per idle socket)', async () => {
    const { deps } = setup();
    let children = 0;
    const counting = { ...silent, child: () => (children++, silent) } as unknown as FastifyBaseLogger;
    const open = () =>
      createConnection(
        {
          sendText: () => undefined,
          sendBinary: () => undefined,
          sendTextThenBinary: () => undefined,
          close: () => undefined,
          bufferedAmount: 0,
        },
        { roomId: ROOM },
        user,
        { ...deps, logger: counting },
      );
    const quiet = open();
    quiet.onText(JSON.stringify({ type: 'setUsername', username: 'g-1', language: 'en', room: ROOM }));
    quiet.onText(JSON.stringify(chatFrame(1)));
    await quiet.settled();
    expect(children).toBe(0);
    // one is made the first time something is worth logging: here, a balance that cannot be read
    const unlucky = createConnection(
      {
        sendText: () => undefined,
        sendBinary: () => undefined,
        sendTextThenBinary: () => undefined,
        close: () => undefined,
        bufferedAmount: 0,
      },
      { roomId: ROOM },
      user,
      { ...deps, logger: counting, balanceFrame: () => Promise.reject(new Error('ledger away')) },
    );
    unlucky.onText(JSON.stringify({ type: 'setUsername', username: 'g-1', language: 'en', room: ROOM }));
    await unlucky.settled();
    expect(children).toBe(1);
  });
});

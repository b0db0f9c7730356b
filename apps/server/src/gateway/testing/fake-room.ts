import type { FastifyBaseLogger } from 'fastify';
import type { MessageFrame, ServerFrame } from '@xtalk/protocol';
import type { UserRow } from '../../accounts/index.js';
import { createMemoryBus } from '../../bus/index.js';
import type { Clock } from '../../clock.js';
import { createChatService, type PostMessage } from '../../messages/index.js';
import type { RoomsRepo, StoredMessage } from '../../rooms/index.js';
import { createConnection, type ConnectionDeps } from '../connection.js';
import type { PeerSocket } from '../peer-socket.js';
import { createMemoryPresence } from '../../delivery/index.js';
import { createRoomHub } from '../../delivery/index.js';

/*
 * One room for the connection's frame tests, against fake sockets: several peers on a real hub and memory
 * bus, a message store in an array, no network.
 */

export const ROOM = 'ABCDEFG';
/** A logger that says nothing; a test that records lines spreads it and replaces one level. */
export const quiet = { child: () => quiet, info() {}, warn() {}, error() {}, debug() {} };
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
export class FakeSocket implements PeerSocket {
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

/** What a test may set in its room; the rest is the same for every room. */
interface RoomOptions {
  history?: MessageFrame[];
  onAudio?: ConnectionDeps['onAudio'];
  logger?: FastifyBaseLogger;
  /** A clock the test moves; otherwise time stands still. */
  clock?: Clock;
  balanceFrame?: ConnectionDeps['balanceFrame'];
}

/** One room: a stored history, the real hub and chat service, and peers joining it. */
export function room(options: RoomOptions = {}) {
  const stored: MessageFrame[] = [...(options.history ?? [])];
  const users = new Map<string, UserRow>();
  const hub = createRoomHub(createMemoryBus());
  let beforeReplay: () => Promise<void> = async () => undefined;
  let beforeInsert: () => Promise<void> = async () => undefined;
  const repo = {
    async insertMessage(input: PostMessage): Promise<StoredMessage> {
      await beforeInsert();
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
    clock: options.clock ?? { now: () => 1_000 },
    logger: options.logger ?? logger,
    replayLimit: 100,
    // the room log's position is the stored count; every joiner here gets the recent window
    log: { position: async () => ({ epoch: 'e1', offset: stored.length }), readSince: async () => [] },
    resumeMaxEvents: 1000,
    maxBufferedBytes: 1000,
    onAudio: options.onAudio,
    balanceFrame: options.balanceFrame,
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
    /** Holds every message store until the returned release is called (a database that stalls). */
    holdInserts() {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      beforeInsert = () => held;
      return () => release();
    },
  };
}

/** The types of the frames a socket got, in order. */
export const types = (frames: ServerFrame[]) => frames.map((frame) => frame.type);

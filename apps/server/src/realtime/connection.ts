import {
  CloseCode,
  PROTOCOL_VERSION,
  normalizeRoomCode,
  type ChatFrame,
  type ErrorCode,
  type MessageFrame,
  type ServerFrame,
  type SetLanguageFrame,
  type SetUsernameFrame,
  type UpdateUsernameFrame,
} from '@xtalk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { displayNameOf, type UserRow, type UsersRepo } from '../auth/users-repo.js';
import type { ChatService } from '../rooms/chat-service.js';
import type { RoomsRepo } from '../rooms/rooms-repo.js';
import type { PeerSocket } from './peer-socket.js';
import type { Presence } from './presence.js';
import {
  DEFAULT_FRAME_LIMITS,
  FrameRefusal,
  createFrameLimits,
  frameKindOf,
  parseFrameText,
  type FrameLimitPolicy,
  type FrameVerdict,
} from './frame-limits.js';
import { createLogSampler } from './log-sampler.js';
import type { RoomHub } from './room-hub.js';

export interface ConnectionDeps {
  hub: RoomHub;
  presence: Presence;
  chat: ChatService;
  rooms: RoomsRepo;
  users: UsersRepo;
  languages: readonly string[];
  clock: Clock;
  logger: FastifyBaseLogger;
  /** How many stored messages a joiner gets replayed. */
  replayLimit: number;
  /** Drop a peer whose unsent bytes exceed this (it stopped reading). */
  maxBufferedBytes: number;
  /** Inbound frame limits and the process-wide sampled log; default: the built-in limits. */
  frameLimits?: FrameLimitPolicy;
  /** Answers a binary frame (voice); without it, binary frames get an error frame. */
  onAudio?: (connection: ConnectionContext, data: Buffer) => Promise<void>;
}

const CHAT_TOO_FAST = 'You are sending messages too fast; wait a moment.';

export interface ConnectionContext {
  readonly roomId: string;
  readonly userId: string;
  username(): string;
  /** The name shown for the user now (follows renames). */
  displayUsername(): string;
  language(): string;
  sendFrame(frame: ServerFrame): void;
}

/**
 * One client's conversation with the server (spec section 7), independent of `ws`: frames in, frames
 * out. Every inbound frame is validated; a bad one gets an `error` frame and the socket stays open.
 */
export function createConnection(
  socket: PeerSocket,
  session: { roomId: string },
  initialUser: UserRow,
  deps: ConnectionDeps,
) {
  let user = initialUser;
  let displayName = displayNameOf(user);
  let language = deps.languages[0]!;
  let state: 'new' | 'joining' | 'joined' | 'closed' = 'new';
  /** Live frames that arrive while the replay is being sent; flushed after READY. */
  let pending: Buffer[] | undefined;
  let lastReplayedId = 0;
  let attached = false;
  let present = false;
  const policy = deps.frameLimits ?? {
    settings: DEFAULT_FRAME_LIMITS,
    log: createLogSampler(deps.logger, deps.clock),
  };
  const limits = createFrameLimits(policy.settings, deps.clock);
  let flooded = false;
  /** Frames of one connection are handled one after another, in the order they came. */
  let queue: Promise<void> = Promise.resolve();
  const log = deps.logger.child({ roomId: session.roomId, userId: user.id });

  function sendText(json: string | Buffer) {
    if (state === 'closed') return;
    if (socket.bufferedAmount > deps.maxBufferedBytes) {
      log.warn('dropping a connection that stopped reading');
      close(CloseCode.PolicyViolation, 'Too slow to keep up.');
      return;
    }
    socket.sendText(json);
  }
  const sendFrame = (frame: ServerFrame) => sendText(JSON.stringify(frame));
  const sendError = (code: ErrorCode, message: string) => sendFrame({ type: 'error', code, message });

  const member = {
    roomId: session.roomId,
    username: () => user.username,
    language: () => language,
    deliverText(json: Buffer) {
      if (pending) pending.push(json);
      else sendText(json);
    },
    deliverAudio(wav: Buffer) {
      if (state === 'joined' && socket.bufferedAmount <= deps.maxBufferedBytes) socket.sendBinary(wav);
    },
  };

  const context: ConnectionContext = {
    roomId: session.roomId,
    userId: user.id,
    username: () => user.username,
    displayUsername: () => displayName,
    language: () => language,
    sendFrame,
  };

  function checkRoom(room: string): boolean {
    if (normalizeRoomCode(room) === session.roomId) return true;
    sendError('wrong_room', `This connection is for room ${session.roomId}, not ${room}.`);
    return false;
  }

  function checkLanguage(candidate: string): boolean {
    if (deps.languages.includes(candidate)) return true;
    sendError(
      'unsupported_language',
      `Language ${candidate} is not supported here (${deps.languages.join(', ')}).`,
    );
    return false;
  }

  async function join(frame: SetUsernameFrame) {
    if (frame.username !== user.username) {
      sendError('forbidden', 'You can only join as yourself: username does not match your login.');
      return;
    }
    if (!checkRoom(frame.room) || !checkLanguage(frame.language)) return;
    language = frame.language;
    if (state !== 'new') return; // a repeated setUsername only updates the language
    state = 'joining';
    pending = [];
    attached = true;
    await deps.hub.attach(member);
    const replay = await deps.rooms.listMessages(session.roomId, deps.replayLimit);
    for (const message of replay) sendFrame(message);
    lastReplayedId = replay.at(-1)?.id ?? 0;
    if ((state as string) === 'closed') return;
    sendFrame({
      type: 'system',
      message: 'READY',
      timestamp: deps.clock.now(),
      roomId: session.roomId,
      protocolVersion: PROTOCOL_VERSION,
    });
    const buffered = pending;
    pending = undefined;
    state = 'joined';
    for (const json of buffered) {
      // a message stored during the replay query may be in both: send it once
      if (isReplayedMessage(json, lastReplayedId)) continue;
      sendText(json);
    }
    present = true;
    if (await deps.presence.join(session.roomId, user.username)) {
      await deps.hub.broadcast(session.roomId, systemEvent('JOIN'), { exceptUsername: user.username });
    }
  }

  function systemEvent(message: 'JOIN' | 'LEAVE'): ServerFrame {
    return {
      type: 'system',
      message,
      timestamp: deps.clock.now(),
      username: user.username,
      displayUsername: displayName,
    };
  }

  async function chat(frame: ChatFrame) {
    if (state !== 'joined') return sendError('not_joined', 'Send setUsername before chatting.');
    if (!checkRoom(frame.room) || !checkLanguage(frame.language)) return;
    await deps.chat.post({
      roomId: session.roomId,
      userId: user.id,
      username: user.username,
      displayUsername: displayName,
      language: frame.language,
      text: frame.message,
    });
  }

  function setLanguage(frame: SetLanguageFrame) {
    if (!checkRoom(frame.room) || !checkLanguage(frame.language)) return;
    language = frame.language;
  }

  async function updateUsername(frame: UpdateUsernameFrame) {
    // The server's record is the truth: the frame only says "my profile changed, tell the room".
    const fresh = await deps.users.findById(user.id);
    if (!fresh || frame.username !== fresh.username) {
      sendError('forbidden', 'You can only rename yourself, to the username saved in your profile.');
      return;
    }
    const oldDisplayName = displayName;
    const renamed = fresh.username !== user.username;
    user = fresh;
    displayName = displayNameOf(fresh);
    if (!renamed && displayName === oldDisplayName) return;
    await deps.rooms.renameAuthor(user.id, user.username, displayName);
    await deps.hub.broadcast(session.roomId, {
      type: 'usernameUpdate',
      username: user.username,
      displayUsername: displayName,
      oldDisplayUsername: oldDisplayName,
    });
  }

  /** Queues a frame's work after the previous frame's; a failure becomes an error frame, never a crash. */
  function track(work: () => Promise<unknown>) {
    queue = queue.then(work).then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof FrameRefusal) return sendError(error.code, error.message);
        log.error({ err: error }, 'frame handling failed');
        sendError('internal', 'Something went wrong on the server; please try again.');
      },
    );
  }

  /** Whether a frame may be handled; a refused one is answered, dropped or ends the connection. */
  function admit(verdict: FrameVerdict, message = 'You are sending too many frames; wait a moment.') {
    if (verdict === 'ok') return true;
    if (verdict === 'tell') sendError('rate_limited', message);
    if (verdict === 'close') {
      policy.log.info('flood', { roomId: session.roomId, userId: user.id }, 'closed a flooding connection');
      flooded = true;
      close(CloseCode.PolicyViolation, 'Too many frames.');
    }
    return false;
  }

  function close(code: number, reason: string) {
    if (state === 'closed') return;
    socket.close(code, reason);
  }

  return {
    context,
    onText(text: string) {
      if (state === 'closed' || !admit(limits.arrive())) return;
      const parsed = parseFrameText(text);
      if (!parsed.ok) {
        if (!admit(limits.kind('invalid'))) return;
        policy.log.info('rejected', { code: parsed.code, reason: parsed.message }, 'rejected a frame');
        return sendError(parsed.code, parsed.message);
      }
      const frame = parsed.frame;
      // Counted when the frame arrives, not when its turn in the queue comes: after a stall the queued
      // frames run back to back, and a client well under the limit must not look bursty.
      const kind = frameKindOf(frame.type);
      if (!admit(limits.kind(kind), kind === 'chat' ? CHAT_TOO_FAST : undefined)) return;
      switch (frame.type) {
        case 'setUsername':
          return track(() => join(frame));
        case 'chat':
          return track(() => chat(frame));
        case 'setLanguage':
          return track(async () => setLanguage(frame));
        case 'updateUsername':
          return track(() => updateUsername(frame));
      }
    },
    onBinary(data: Buffer) {
      if (state === 'closed' || !admit(limits.arrive())) return;
      limits.accepted();
      if (!deps.onAudio)
        return sendError('audio_rejected', 'Voice messages are not supported by this server yet.');
      if (state !== 'joined') return sendError('not_joined', 'Send setUsername before sending audio.');
      track(() => deps.onAudio!(context, data));
    },
    /**
     * The socket is gone. `announce` is false when the server itself is shutting down: the people did not
     * leave, the server did, and they will be back in a moment.
     */
    async onClose(announce: boolean) {
      state = 'closed';
      pending = undefined;
      await queue;
      if (attached) await deps.hub.detach(member);
      if (!present) return;
      const last = await deps.presence.leave(session.roomId, user.username);
      if (last && announce) {
        await deps.hub.broadcast(session.roomId, systemEvent('LEAVE'), { exceptUsername: user.username });
      }
    },
    /** Whether the connection was closed for flooding (its user is refused new sockets for a while). */
    flooded: () => flooded,
    /** Work still running for this connection (frames being stored). */
    settled: () => queue,
    close,
  };
}
export type Connection = ReturnType<typeof createConnection>;

function isReplayedMessage(json: Buffer, lastReplayedId: number): boolean {
  // Cheap check on the serialised bytes; only message frames start this way (see encodeText).
  if (!json.subarray(0, 20).toString().startsWith('{"type":"message"')) return false;
  const frame = JSON.parse(json.toString()) as MessageFrame;
  return frame.id <= lastReplayedId;
}

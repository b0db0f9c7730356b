import {
  CloseCode,
  MIN_PROTOCOL_VERSION,
  PROTOCOL_VERSION,
  normalizeRoomCode,
  type ChatFrame,
  type ErrorCode,
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
import type { RoomLog } from '../rooms/room-log.js';
import { FrameRefusal } from '../rooms/refusal.js';
import type { PeerSocket } from './peer-socket.js';
import type { Presence } from './presence.js';
import {
  DEFAULT_FRAME_LIMITS,
  createFrameLimits,
  frameKindOf,
  parseFrameText,
  type FrameLimitPolicy,
  type FrameVerdict,
} from './frame-limits.js';
import { createLogSampler } from './log-sampler.js';
import type { RoomHub } from './room-hub.js';
import { catchUpFor } from './resume.js';
import { checkProtocolVersion } from './protocol-version.js';

export interface ConnectionDeps {
  hub: RoomHub;
  presence: Presence;
  chat: ChatService;
  rooms: RoomsRepo;
  users: UsersRepo;
  languages: readonly string[];
  clock: Clock;
  logger: FastifyBaseLogger;
  /** The room log: positions and what a resuming client missed. */
  log: Pick<RoomLog, 'position' | 'readSince'>;
  /** How many stored messages a joiner gets replayed. */
  replayLimit: number;
  /** The furthest behind (in offsets) a resume is replayed; further gets RESYNC and the recent window. */
  resumeMaxEvents: number;
  /** The oldest protocol version served (a setUsername without one is version 1). */
  minProtocolVersion?: number;
  /** Drop a peer whose unsent bytes exceed this (it stopped reading). */
  maxBufferedBytes: number;
  /** The frame sent right after READY with the user's balance; undefined for guests (no balance shown). */
  balanceFrame?: (user: UserRow) => Promise<ServerFrame | undefined>;
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
  /** The client id announced (voiceClip) for the next voice clip, taken once. */
  takeClipClientId(): string | undefined;
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
  let pending: { json: Buffer; offset: number | undefined }[] | undefined;
  /** The last room offset sent on this socket: a logged frame at or before it is not sent again. */
  let lastOffset = 0;
  let clipClientId: string | undefined;
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
  /** The hub delivers logged frames in offset order; the replay may already have covered some. */
  function sendLogged(json: Buffer, offset: number | undefined) {
    if (offset !== undefined) {
      if (offset <= lastOffset) return;
      lastOffset = offset;
    }
    sendText(json);
  }
  const sendError = (code: ErrorCode, message: string, clientId?: string) =>
    sendFrame({ type: 'error', code, message, ...(clientId ? { clientId } : {}) });

  const member = {
    roomId: session.roomId,
    username: () => user.username,
    language: () => language,
    deliverText(json: Buffer, offset?: number) {
      if (pending) pending.push({ json, offset });
      else sendLogged(json, offset);
    },
    deliverAudio(wav: Buffer) {
      if (state === 'joined' && socket.bufferedAmount <= deps.maxBufferedBytes) socket.sendBinary(wav);
    },
  };

  /** Frames for this user on any node (BALANCE, the author's notices); after READY like room frames. */
  const userMember = {
    userId: user.id,
    deliverText: member.deliverText,
  };

  const context: ConnectionContext = {
    roomId: session.roomId,
    userId: user.id,
    username: () => user.username,
    displayUsername: () => displayName,
    language: () => language,
    sendFrame,
    takeClipClientId() {
      const clientId = clipClientId;
      clipClientId = undefined;
      return clientId;
    },
  };

  function checkRoom(room: string, clientId?: string): boolean {
    if (normalizeRoomCode(room) === session.roomId) return true;
    sendError('wrong_room', `This connection is for room ${session.roomId}, not ${room}.`, clientId);
    return false;
  }

  function checkLanguage(candidate: string, clientId?: string): boolean {
    if (deps.languages.includes(candidate)) return true;
    sendError(
      'unsupported_language',
      `Language ${candidate} is not supported here (${deps.languages.join(', ')}).`,
      clientId,
    );
    return false;
  }

  async function join(frame: SetUsernameFrame) {
    if (frame.username !== user.username) {
      sendError('forbidden', 'You can only join as yourself: username does not match your login.');
      return;
    }
    if (!checkRoom(frame.room) || !checkLanguage(frame.language)) return;
    if (state === 'new') {
      const refusal = checkProtocolVersion(
        frame.protocolVersion,
        deps.minProtocolVersion ?? MIN_PROTOCOL_VERSION,
      );
      if (refusal) {
        log.info({ protocolVersion: frame.protocolVersion }, 'refused a protocol version');
        sendError('bad_frame', refusal);
        return close(CloseCode.UnsupportedVersion, refusal);
      }
    }
    language = frame.language;
    if (state !== 'new') return; // a repeated setUsername only updates the language
    state = 'joining';
    pending = [];
    attached = true;
    let catchUp: Awaited<ReturnType<typeof catchUpFor>>;
    try {
      await deps.hub.attach(member);
      await deps.hub.attachUser(userMember);
      catchUp = await catchUpFor(deps, session.roomId, frame.resume);
    } catch (error) {
      // Half-joined is no state to stay in: the client reconnects (and resumes) once we can serve it.
      log.error({ err: error }, 'joining the room failed');
      sendError('unavailable', 'The room could not be loaded just now; reconnecting.');
      close(1011, 'Room unavailable; reconnecting.');
      return;
    }
    const position = { epoch: catchUp.position.epoch, offset: catchUp.position.offset };
    if (catchUp.resync)
      sendFrame({ type: 'system', message: 'RESYNC', timestamp: deps.clock.now(), ...position });
    for (const replayed of catchUp.frames) sendFrame(replayed);
    lastOffset = position.offset;
    if ((state as string) === 'closed') return;
    sendFrame({
      type: 'system',
      message: 'READY',
      timestamp: deps.clock.now(),
      roomId: session.roomId,
      protocolVersion: PROTOCOL_VERSION,
      ...position,
    });
    const balance = await balanceAfterReady();
    if (balance) sendFrame(balance);
    const buffered = pending;
    pending = undefined;
    state = 'joined';
    for (const { json, offset } of buffered) {
      // the balance read after READY is newer than any BALANCE that arrived before it
      if (balance && offset === undefined && isBalanceFrame(json)) continue;
      sendLogged(json, offset);
    }
    // Presence only decides whether to announce JOIN: while its store is away the join still works.
    const first = await deps.presence.join(session.roomId, user.username).then(
      (isFirst) => {
        present = true;
        return isFirst;
      },
      (error: unknown) => {
        log.warn({ err: error }, 'presence unavailable; joined without announcing');
        return false;
      },
    );
    if (first) {
      await deps.hub.broadcast(session.roomId, systemEvent('JOIN'), { exceptUsername: user.username });
    }
  }

  async function balanceAfterReady(): Promise<ServerFrame | undefined> {
    try {
      return await deps.balanceFrame?.(user);
    } catch (error) {
      // the balance is a convenience here; the room works without it
      log.warn({ err: error }, 'could not read the balance for READY');
      return undefined;
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
    if (state !== 'joined')
      return sendError('not_joined', 'Send setUsername before chatting.', frame.clientId);
    if (!checkRoom(frame.room, frame.clientId) || !checkLanguage(frame.language, frame.clientId)) return;
    const stored = await deps.chat.post({
      roomId: session.roomId,
      userId: user.id,
      username: user.username,
      displayUsername: displayName,
      language: frame.language,
      text: frame.message,
      clientId: frame.clientId,
    });
    if (stored.duplicate) answerDuplicate(stored);
  }

  /** A resend of a stored client id: the stored message, to this connection alone (its acknowledgement). */
  function answerDuplicate(stored: { message: ServerFrame; roomId: string }) {
    if (stored.roomId === session.roomId) return sendFrame(stored.message);
    sendError('message_invalid', 'This clientId was already used for a message in another room.');
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
    const offset = await deps.rooms.renameAuthor(user.id, user.username, displayName, {
      roomId: session.roomId,
      oldDisplayUsername: oldDisplayName,
    });
    await deps.hub.broadcast(session.roomId, {
      type: 'usernameUpdate',
      username: user.username,
      displayUsername: displayName,
      oldDisplayUsername: oldDisplayName,
      ...(offset ? { offset } : {}),
    });
  }

  /** Queues a frame's work after the previous frame's; a failure becomes an error frame, never a crash. */
  function track(work: () => Promise<unknown>, clientId?: string) {
    queue = queue.then(work).then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof FrameRefusal) return sendError(error.code, error.message, clientId);
        log.error({ err: error }, 'frame handling failed');
        sendError('internal', 'Something went wrong on the server; please try again.', clientId);
      },
    );
  }

  /**
   * Whether a frame may be handled; a refused one is answered, dropped or ends the connection. `clientId`
   * is the refused frame's own, so the web outbox knows which message to send again.
   */
  function admit(
    verdict: FrameVerdict,
    message = 'You are sending too many frames; wait a moment.',
    clientId?: string,
  ) {
    if (verdict === 'ok') return true;
    if (verdict === 'tell') sendError('rate_limited', message, clientId);
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
        const clientId = clientIdIn(text);
        if (!admit(limits.kind('invalid'), undefined, clientId)) return;
        policy.log.info('rejected', { code: parsed.code, reason: parsed.message }, 'rejected a frame');
        return sendError(parsed.code, parsed.message, clientId);
      }
      const frame = parsed.frame;
      // Counted when the frame arrives, not when its turn in the queue comes: after a stall the queued
      // frames run back to back, and a client well under the limit must not look bursty.
      const kind = frameKindOf(frame.type);
      const clientId = 'clientId' in frame ? frame.clientId : undefined;
      if (!admit(limits.kind(kind), kind === 'chat' ? CHAT_TOO_FAST : undefined, clientId)) return;
      switch (frame.type) {
        case 'setUsername':
          return track(() => join(frame));
        case 'chat':
          return track(() => chat(frame), frame.clientId);
        case 'setLanguage':
          return track(async () => setLanguage(frame));
        case 'updateUsername':
          return track(() => updateUsername(frame));
        case 'voiceClip':
          clipClientId = frame.clientId;
          return;
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
      if (attached) {
        await deps.hub.detach(member);
        await deps.hub.detachUser(userMember);
      }
      if (!present) return;
      const last = await deps.presence.leave(session.roomId, user.username).catch(() => false);
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

function isBalanceFrame(json: Buffer): boolean {
  return json.subarray(0, 40).toString().startsWith('{"type":"system","message":"BALANCE"');
}

/** The clientId of a refused chat frame, when it has a usable one (the refusal names it). */
function clientIdIn(text: string): string | undefined {
  try {
    const clientId = (JSON.parse(text) as { clientId?: unknown } | null)?.clientId;
    return typeof clientId === 'string' && clientId.length > 0 && clientId.length <= 64
      ? clientId
      : undefined;
  } catch {
    return undefined;
  }
}

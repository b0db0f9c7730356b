import {
  CloseCode,
  type ErrorCode,
  type ServerFrame,
  type VoiceEndFrame,
  type VoiceStartFrame,
} from '@xtalk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { displayNameOf, type UserRow } from '../auth/users-repo.js';
import { FrameRefusal } from '../rooms/refusal.js';
import {
  announcePresence,
  type ConnectionContext,
  type ConnectionCore,
  type ConnectionDeps,
} from './connection-core.js';
import { join } from './connection-join.js';
import { editMessage } from './edit-handler.js';
import { jsonForVersion } from './legacy-frames.js';
import { chat, setLanguage, updateUsername } from './frame-handlers.js';
import type { PeerSocket } from './peer-socket.js';
import {
  DEFAULT_FRAME_LIMITS,
  createFrameLimits,
  frameKindOf,
  parseFrameText,
  type FrameVerdict,
} from './frame-limits.js';
import { createLogSampler } from './log-sampler.js';

export type { ConnectionContext, ConnectionDeps } from './connection-core.js';

const CHAT_TOO_FAST = 'You are sending messages too fast; wait a moment.';

/** The connection's state and its ways out (the socket, the hub's member views). */
function createCore(
  socket: PeerSocket,
  session: { roomId: string },
  initialUser: UserRow,
  deps: ConnectionDeps,
): ConnectionCore {
  let log: FastifyBaseLogger | undefined;
  const core: ConnectionCore = {
    deps,
    roomId: session.roomId,
    // made on first use: most connections never log, and a child logger per socket is memory (issue 13)
    get log() {
      log ??= deps.logger.child({ roomId: session.roomId, userId: initialUser.id });
      return log;
    },
    user: initialUser,
    displayName: displayNameOf(initialUser),
    language: deps.languages[0]!,
    state: 'new',
    protocolVersion: 1,
    pending: undefined,
    lastOffset: 0,
    attached: false,
    present: false,
    member: {
      roomId: session.roomId,
      username: () => core.user.username,
      language: () => core.language,
      deliverText(json: Buffer, offset?: number) {
        if (core.pending) core.pending.push({ json, offset });
        else core.sendLogged(json, offset);
      },
      deliverAudio(wav: Buffer) {
        if (core.state === 'joined' && socket.bufferedAmount <= deps.maxBufferedBytes) socket.sendBinary(wav);
      },
    },
    /** Frames for this user on any node (BALANCE, the author's notices); after READY like room frames. */
    userMember: {
      userId: initialUser.id,
      deliverText: (json: Buffer) => core.member.deliverText(json),
    },
    sendFrame: (frame: ServerFrame) => sendText(JSON.stringify(frame)),
    sendError: (code: ErrorCode, message: string, clientId?: string) =>
      core.sendFrame({ type: 'error', code, message, ...(clientId ? { clientId } : {}) }),
    sendLogged(json: Buffer, offset: number | undefined) {
      if (offset !== undefined) {
        if (offset <= core.lastOffset) return;
        core.lastOffset = offset;
      }
      for (const forClient of jsonForVersion(json, core.protocolVersion, core.user.username))
        sendText(forClient);
    },
    close(code: number, reason: string) {
      if (core.state === 'closed') return;
      socket.close(code, reason);
    },
  };
  function sendText(json: string | Buffer) {
    if (core.state === 'closed') return;
    if (socket.bufferedAmount > deps.maxBufferedBytes) {
      core.log.warn('dropping a connection that stopped reading');
      core.close(CloseCode.PolicyViolation, 'Too slow to keep up.');
      return;
    }
    socket.sendText(json);
  }
  return core;
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
  const core = createCore(socket, session, initialUser, deps);
  const { sendError, close } = core;
  let clipClientId: string | undefined;
  const policy = deps.frameLimits ?? {
    settings: DEFAULT_FRAME_LIMITS,
    log: createLogSampler(deps.logger, deps.clock),
  };
  const limits = createFrameLimits(policy.settings, deps.clock);
  let flooded = false;
  /** Frames of one connection are handled one after another, in the order they came. */
  let queue: Promise<void> = Promise.resolve();

  const context: ConnectionContext = {
    roomId: session.roomId,
    userId: initialUser.id,
    username: () => core.user.username,
    displayUsername: () => core.displayName,
    language: () => core.language,
    sendFrame: core.sendFrame,
    takeClipClientId() {
      const clientId = clipClientId;
      clipClientId = undefined;
      return clientId;
    },
  };

  /** Queues a frame's work after the previous frame's; a failure becomes an error frame, never a crash. */
  function track(work: () => Promise<unknown>, clientId?: string) {
    queue = queue.then(work).then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof FrameRefusal) return sendError(error.code, error.message, clientId);
        core.log.error({ err: error }, 'frame handling failed');
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
      policy.log.info(
        'flood',
        { roomId: session.roomId, userId: core.user.id },
        'closed a flooding connection',
      );
      flooded = true;
      close(CloseCode.PolicyViolation, 'Too many frames.');
    }
    return false;
  }

  async function voiceFrame(frame: VoiceStartFrame | VoiceEndFrame): Promise<void> {
    if (!deps.onVoiceFrame) {
      return sendError('audio_rejected', 'Streamed voice is not supported by this server.');
    }
    if (core.state !== 'joined') return sendError('not_joined', 'Send setUsername before sending audio.');
    await deps.onVoiceFrame(context, frame);
  }

  return {
    context,
    onText(text: string) {
      if (core.state === 'closed' || !admit(limits.arrive())) return;
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
          return track(() => join(core, frame));
        case 'chat':
          return track(() => chat(core, frame), frame.clientId);
        case 'setLanguage':
          return track(async () => setLanguage(core, frame));
        case 'updateUsername':
          return track(() => updateUsername(core, frame));
        case 'voiceClip':
          clipClientId = frame.clientId;
          return;
        case 'editMessage':
          return track(() => editMessage(core, frame));
        case 'voiceStart':
        case 'voiceEnd':
          return track(async () => voiceFrame(frame));
      }
    },
    onBinary(data: Buffer) {
      if (core.state === 'closed' || !admit(limits.arrive())) return;
      limits.accepted();
      if (!deps.onAudio)
        return sendError('audio_rejected', 'Voice messages are not supported by this server yet.');
      if (core.state !== 'joined') return sendError('not_joined', 'Send setUsername before sending audio.');
      track(() => deps.onAudio!(context, data));
    },
    /**
     * The socket is gone. `announce` is false when the server itself is shutting down: the people did not
     * leave, the server did, and they will be back in a moment.
     */
    async onClose(announce: boolean) {
      core.state = 'closed';
      core.pending = undefined;
      await queue;
      if (core.attached) {
        await deps.hub.detach(core.member);
        await deps.hub.detachUser(core.userMember);
      }
      if (!core.present) return;
      const last = await deps.presence.leave(session.roomId, core.user.username).catch(() => false);
      if (last && announce) await announcePresence(core, 'LEAVE');
    },
    /** Whether the connection was closed for flooding (its user is refused new sockets for a while). */
    flooded: () => flooded,
    /** Work still running for this connection (frames being stored). */
    settled: () => queue,
    close,
  };
}
export type Connection = ReturnType<typeof createConnection>;

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

import {
  CloseCode,
  SUMMARY_PROTOCOL_VERSION,
  SPEECH_STREAM_PROTOCOL_VERSION,
  type ErrorCode,
  type ServerFrame,
  type SummarizeFrame,
  type VoiceEndFrame,
  type VoiceStartFrame,
} from '@xtalk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { displayNameOf, type UserRow } from '../accounts/index.js';
import { leaveRoom } from './connection-presence.js';
import type {
  ConnectionDeps,
  ConnectionState,
  Joiner,
  Renamed,
  LanguageChooser,
} from './connection-ports.js';
import type { Author } from '../messages/index.js';
import type { UserMember } from '../delivery/index.js';
import { MemberView, VoiceContext } from './connection-views.js';
import { join } from './connection-join.js';
import { failureAnswer } from './frame-failure.js';
import { editMessage, retranslate } from './edit-handler.js';
import { members } from './members-handler.js';
import { answerForVersion, jsonForVersion, readsFramesAsServed } from './legacy-frames.js';
import { chat, checkRoom, followRename, setLanguage, updateUsername } from './frame-handlers.js';
import type { PeerSocket } from './peer-socket.js';
import {
  DEFAULT_FRAME_LIMITS,
  clientIdIn,
  clientIdScanned,
  createFrameLimits,
  frameKindOf,
  parseFrameText,
  type FrameLimitPolicy,
  type FrameLimits,
  type FrameVerdict,
} from './frame-limits.js';
import { createLogSampler, type LogSampler } from '../log-sampler.js';

export type { ConnectionDeps } from './connection-ports.js';

const CHAT_TOO_FAST = 'You are sending messages too fast; wait a moment.';
const TOO_MANY_FRAMES = 'You are sending too many frames; wait a moment.';
/** Connections made by this process, numbering them in the log. */
let connectionsMade = 0;

// Memory per idle connection: a connection is a handful of small objects whose methods live on their
// classes' prototypes, not an object literal of closures (docs/decisions/0087-connection-memory.md).

/**
 * One client's conversation with the server, independent of `ws`: frames in, frames
 * out. Every inbound frame is validated; a bad one gets an `error` frame and the socket stays open. Each
 * frame goes to its handler with two narrow ports (connection-ports.ts): what the handler uses of the node,
 * and what it reads and writes of this connection.
 */
export class Connection implements Joiner, Renamed, LanguageChooser {
  readonly roomId: string;
  user: UserRow;
  displayName: string;
  language: string;
  state: ConnectionState = 'new';
  protocolVersion = 1;
  pending: Joiner['pending'] = undefined;
  lastOffset = 0;
  attached = false;
  present = false;
  listening: string | undefined = undefined;
  readonly member: MemberView;
  /** The client id announced (voiceClip) for the next voice clip. */
  clipClientId: string | undefined = undefined;
  private readonly limits: FrameLimits;
  private wasFlooded = false;
  /** Frames of one connection are handled one after another, in the order they came. */
  private queue: Promise<void> = RESOLVED;
  // made on first use: most connections never log, and a child logger per socket is memory
  private childLog: FastifyBaseLogger | undefined = undefined;
  private voiceContext: VoiceContext | undefined = undefined;
  private ownPolicy: FrameLimitPolicy | undefined = undefined;
  /** The socket's request id in the log (`ws-<n>`), as Fastify numbers HTTP requests `req-<n>`. */
  private readonly serial = ++connectionsMade;

  constructor(
    private readonly socket: PeerSocket,
    session: { roomId: string },
    initialUser: UserRow,
    readonly deps: ConnectionDeps,
  ) {
    this.roomId = session.roomId;
    this.user = initialUser;
    this.displayName = displayNameOf(initialUser);
    this.language = deps.languages[0]!;
    this.member = new MemberView(this);
    this.limits = createFrameLimits(this.policy.settings, deps.clock);
  }

  get log(): FastifyBaseLogger {
    this.childLog ??= this.deps.logger.child(this.logFields);
    return this.childLog;
  }

  /** Who a line is about: the socket's request id, its room and its user. */
  get logFields() {
    return { reqId: `ws-${this.serial}`, room: this.roomId, user: this.user.id };
  }

  /** Frames for this user on any node (BALANCE, the author's notices); after READY like room frames. */
  get userMember(): UserMember {
    return this.member;
  }

  get context(): Author {
    this.voiceContext ??= new VoiceContext(this);
    return this.voiceContext;
  }

  /** Where log lines a client can cause go (sampled per kind and user). */
  get sampledLog(): LogSampler {
    return this.policy.log;
  }

  private get policy(): FrameLimitPolicy {
    if (this.deps.frameLimits) return this.deps.frameLimits;
    this.ownPolicy ??= {
      settings: DEFAULT_FRAME_LIMITS,
      log: createLogSampler(this.deps.logger, this.deps.clock),
    };
    return this.ownPolicy;
  }

  sendFrame(frame: ServerFrame) {
    this.sendText(JSON.stringify(answerForVersion(frame, this.protocolVersion)));
  }

  sendError(code: ErrorCode, message: string, clientId?: string) {
    this.sendFrame({ type: 'error', code, message, ...(clientId ? { clientId } : {}) });
  }

  sendLogged(json: Buffer, offset: number | undefined) {
    if (offset !== undefined) {
      if (offset <= this.lastOffset) return;
      this.lastOffset = offset;
    }
    if (readsFramesAsServed(this.protocolVersion)) return this.sendText(json);
    for (const forClient of jsonForVersion(json, this.protocolVersion, this.user.username))
      this.sendText(forClient);
  }

  /** One WAV per message, for clients before sentence-by-sentence speech. */
  deliverAudio(wav: Buffer) {
    if (this.protocolVersion >= SPEECH_STREAM_PROTOCOL_VERSION) return;
    if (this.state === 'joined' && this.socket.bufferedAmount <= this.deps.maxBufferedBytes)
      this.socket.sendBinary(wav);
  }

  /** A spoken sentence: its frame and, at once after it, its audio (nothing can come between). */
  deliverSpeech(json: Buffer, ogg: Buffer) {
    if (this.protocolVersion < SPEECH_STREAM_PROTOCOL_VERSION) return;
    if (this.state !== 'joined' || this.socket.bufferedAmount > this.deps.maxBufferedBytes) return;
    this.socket.sendTextThenBinary(json, ogg);
  }

  close(code: number, reason: string) {
    if (this.state === 'closed') return;
    this.socket.close(code, reason);
  }

  private sendText(json: string | Buffer) {
    if (this.state === 'closed') return;
    if (this.socket.bufferedAmount > this.deps.maxBufferedBytes) {
      // every frame for it comes here until its close completes: sampled, as a client can cause it
      this.sampledLog.warn(
        'slow-reader',
        this.logFields,
        'dropping a connection that stopped reading',
        this.user.id,
      );
      this.close(CloseCode.PolicyViolation, 'Too slow to keep up.');
      return;
    }
    this.socket.sendText(json);
  }

  /** Queues a frame's work after the previous frame's; a failure becomes an error frame, never a crash. */
  followRename(): void {
    this.track(() => followRename(this.deps, this));
  }

  private track(work: () => Promise<unknown>, clientId?: string) {
    this.queue = this.queue.then(work).then(
      () => undefined,
      (error: unknown) => {
        const answer = failureAnswer(error);
        if (answer.unexpected) this.log.error({ err: error }, 'frame handling failed');
        this.sendError(answer.code, answer.message, clientId);
      },
    );
  }

  /**
   * Whether a frame may be handled; a refused one is answered, dropped or ends the connection. `clientId`
   * is the refused frame's own, so the web outbox knows which message to send again.
   */
  private admit(verdict: FrameVerdict, message = TOO_MANY_FRAMES, clientId?: string) {
    if (verdict === 'ok') return true;
    this.deps.metrics?.frameRefused('rate_limited');
    if (verdict === 'tell') this.sendError('rate_limited', message, clientId);
    if (verdict === 'close') {
      this.policy.log.info('flood', this.logFields, 'closed a flooding connection', this.user.id);
      this.wasFlooded = true;
      this.close(CloseCode.PolicyViolation, 'Too many frames.');
    }
    return false;
  }

  /**
   * A frame the overall limit refused before it was parsed. A message (a frame naming a clientId) is
   * answered every time, with its clientId, so the outbox sends it again instead of waiting on silence;
   * other frames at most once a second, so a flood is not answered frame by frame.
   */
  private refuseUnread(verdict: FrameVerdict, text: string) {
    const clientId = clientIdScanned(text);
    if (clientId === undefined) return this.admit(verdict);
    return this.admit(verdict === 'drop' ? 'tell' : verdict, CHAT_TOO_FAST, clientId);
  }

  private async voiceFrame(frame: VoiceStartFrame | VoiceEndFrame): Promise<void> {
    if (!this.deps.onVoiceFrame) {
      return this.sendError('audio_rejected', 'Streamed voice is not supported by this server.');
    }
    if (this.state !== 'joined')
      return this.sendError('not_joined', 'Send setUsername before sending audio.');
    await this.deps.onVoiceFrame(this.context, frame);
  }

  /** Checked in frame order; the summary itself is not waited for, so the asker's next frames are not held. */
  private summarize(frame: SummarizeFrame): void {
    if (this.state !== 'joined') return this.sendError('not_joined', 'Send setUsername before summarize.');
    if (this.protocolVersion < SUMMARY_PROTOCOL_VERSION)
      return this.sendError('bad_frame', `summarize needs protocol ${SUMMARY_PROTOCOL_VERSION} or later.`);
    if (!checkRoom(this, frame.room)) return;
    if (!this.deps.onSummarize)
      return this.sendError('engine_unsupported', 'Summaries are not available on this server.');
    void this.deps.onSummarize(this.context, frame);
  }

  onText(text: string) {
    if (this.state === 'closed') return;
    const arrival = this.limits.arrive();
    if (arrival !== 'ok') return void this.refuseUnread(arrival, text);
    const parsed = parseFrameText(text);
    if (!parsed.ok) {
      const clientId = clientIdIn(text);
      if (!this.admit(this.limits.kind('invalid'), undefined, clientId)) return;
      this.deps.metrics?.frameRefused('invalid');
      const reason = { code: parsed.code, reason: parsed.message };
      this.sampledLog.info('rejected', reason, 'rejected a frame', this.user.id);
      return this.sendError(parsed.code, parsed.message, clientId);
    }
    const frame = parsed.frame;
    // Counted when the frame arrives, not when its turn in the queue comes: after a stall the queued
    // frames run back to back, and a client well under the limit must not look bursty.
    const kind = frameKindOf(frame.type);
    const clientId = 'clientId' in frame ? frame.clientId : undefined;
    if (!this.admit(this.limits.kind(kind), kind === 'chat' ? CHAT_TOO_FAST : undefined, clientId)) return;
    switch (frame.type) {
      case 'setUsername':
        return this.track(() => join(this.deps, this, frame));
      case 'chat':
        return this.track(() => chat(this.deps, this, frame), frame.clientId);
      case 'setLanguage':
        return this.track(async () => setLanguage(this.deps, this, frame));
      case 'updateUsername':
        return this.track(() => updateUsername(this.deps, this, frame));
      case 'voiceClip':
        this.clipClientId = frame.clientId;
        return;
      case 'editMessage':
        return this.track(() => editMessage(this.deps, this, frame));
      case 'retranslate':
        return this.track(() => retranslate(this.deps, this, frame));
      case 'members':
        return this.track(() => members(this.deps, this, frame));
      case 'voiceStart':
      case 'voiceEnd':
        return this.track(async () => this.voiceFrame(frame));
      case 'summarize':
        return this.track(async () => this.summarize(frame));
      case 'ping':
        // answered at once, not after the frames queued before it: it asks about the socket, not them
        return this.sendFrame({ type: 'pong' });
    }
  }

  onBinary(data: Buffer) {
    if (this.state === 'closed' || !this.admit(this.limits.arrive())) return;
    this.limits.accepted();
    const onAudio = this.deps.onAudio;
    if (!onAudio)
      return this.sendError('audio_rejected', 'Voice messages are not supported by this server yet.');
    if (this.state !== 'joined')
      return this.sendError('not_joined', 'Send setUsername before sending audio.');
    this.track(() => onAudio(this.context, data));
  }

  /**
   * The socket is gone. `announce` is false when the server itself is shutting down: the people did not
   * leave, the server did, and they will be back in a moment.
   */
  async onClose(announce: boolean) {
    this.state = 'closed';
    this.pending = undefined;
    await this.queue;
    await leaveRoom(this.deps, this, announce);
  }

  /** Whether the connection was closed for flooding (its user is refused new sockets for a while). */
  flooded() {
    return this.wasFlooded;
  }

  /** Work still running for this connection (frames being stored). */
  settled() {
    return this.queue;
  }
}

const RESOLVED: Promise<void> = Promise.resolve();

export function createConnection(
  socket: PeerSocket,
  session: { roomId: string },
  initialUser: UserRow,
  deps: ConnectionDeps,
): Connection {
  return new Connection(socket, session, initialUser, deps);
}

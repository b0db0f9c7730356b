import {
  CLIENT_ID_REQUIRED_PROTOCOL_VERSION,
  SPEECH_STREAM_PROTOCOL_VERSION,
  type ErrorCode,
  type ServerFrame,
  type SummarizeFrame,
  type VoiceEndFrame,
  type VoiceStartFrame,
} from '@xtalk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { UserRow, UsersRepo } from '../accounts/index.js';
import type { Author, ChatService } from '../messages/index.js';
import type { RoomsRepo } from '../rooms/index.js';
import type { CatchUpDeps } from './resume.js';
import type { FrameLimitPolicy } from './frame-limits.js';
import { wholeAudioIn, type Presence } from '../delivery/index.js';
import type { PresenceEvent } from '../delivery/index.js';
import type { Returners } from '../delivery/index.js';
import type { LogSampler } from '../log-sampler.js';
import type { Departures } from '../delivery/index.js';
import type { PresenceAnnouncer } from '../delivery/index.js';
import type { HubMember, RoomHub, UserMember } from '../delivery/index.js';
import type { MetricsReport } from '../metrics/index.js';

export interface ConnectionDeps {
  hub: RoomHub;
  presence: Presence;
  /** JOIN/LEAVE coalesced per room (decision 0110); without it each is broadcast at once. */
  announcer?: PresenceAnnouncer;
  /** Who a restart sent away: not announced as joining when back within the grace (decision 0161). */
  returners?: Returners;
  /** The grace before a closed connection leaves the room's presence (decision 0140); without it, at once. */
  departures?: Departures;
  chat: ChatService;
  rooms: RoomsRepo;
  users: UsersRepo;
  languages: readonly string[];
  clock: Clock;
  logger: FastifyBaseLogger;
  /** The room log: positions and what a resuming client missed. */
  log: CatchUpDeps['log'];
  /** How many stored messages a joiner gets replayed. */
  replayLimit: number;
  /** The furthest behind (in offsets) a resume is replayed; further gets RESYNC and the recent window. */
  resumeMaxEvents: number;
  /** The oldest protocol version served (a setUsername without one is version 1). */
  minProtocolVersion?: number;
  /** Clients of this protocol version and later must send a clientId with every chat frame. */
  clientIdRequiredFrom?: number;
  /** How long after sending its author may correct a message (seconds); READY says it. Default 0. */
  editWindowSeconds?: number;
  /** Drop a peer whose unsent bytes exceed this (it stopped reading). */
  maxBufferedBytes: number;
  /** The frame sent right after READY with the user's balance; undefined for guests (no balance shown). */
  balanceFrame?: (user: UserRow) => Promise<ServerFrame | undefined>;
  /** Inbound frame limits and the process-wide sampled log; default: the built-in limits. */
  frameLimits?: FrameLimitPolicy;
  /** Answers a binary frame (voice); without it, binary frames get an error frame. */
  onAudio?: (connection: Author, data: Buffer) => Promise<void>;
  /** Streamed voice (protocol 3): voiceStart and voiceEnd; without it they get an error frame. */
  onVoiceFrame?: (connection: Author, frame: VoiceStartFrame | VoiceEndFrame) => Promise<void>;
  /** "Catch me up" (protocol 6): answers to this connection alone; without it, summarize is refused. */
  onSummarize?: (connection: Author, frame: SummarizeFrame) => Promise<void>;
  /** Where refused frames and stored messages are counted (/metrics); nowhere without. */
  metrics?: Pick<MetricsReport, 'frameRefused' | 'messageStored'>;
}

/**
 * One connection's state and outputs, shared explicitly by its frame handlers (connection-join.ts,
 * frame-handlers.ts); createConnection owns it.
 */
export interface ConnectionCore {
  readonly deps: ConnectionDeps;
  readonly roomId: string;
  readonly log: FastifyBaseLogger;
  /** Lines a client can cause at will, sampled (log-sampler.ts). */
  readonly sampledLog: LogSampler;
  user: UserRow;
  displayName: string;
  language: string;
  state: 'new' | 'joining' | 'joined' | 'closed';
  /** The protocol version the client speaks (1 until its setUsername says); older ones get older frames. */
  protocolVersion: number;
  /** Live frames that arrive while the replay is being sent; flushed after READY. */
  pending: { json: Buffer; offset: number | undefined }[] | undefined;
  /** The last room offset sent on this socket: a logged frame at or before it is not sent again. */
  lastOffset: number;
  attached: boolean;
  present: boolean;
  /** The language the room's listener counts have this connection in (presence, decision 0137); undefined: none. */
  listening: string | undefined;
  readonly member: HubMember;
  readonly userMember: UserMember;
  sendFrame(frame: ServerFrame): void;
  sendError(code: ErrorCode, message: string, clientId?: string): void;
  /** The hub delivers logged frames in offset order; the replay may already have covered some. */
  sendLogged(json: Buffer, offset: number | undefined): void;
  close(code: number, reason: string): void;
}

/** Whether this client must send a clientId with every chat frame (READY tells it so). */
export function clientIdRequired(core: Pick<ConnectionCore, 'deps' | 'protocolVersion'>): boolean {
  return core.protocolVersion >= (core.deps.clientIdRequiredFrom ?? CLIENT_ID_REQUIRED_PROTOCOL_VERSION);
}

export function systemEvent(core: ConnectionCore, message: 'JOIN' | 'LEAVE'): ServerFrame {
  return {
    type: 'system',
    message,
    timestamp: core.deps.clock.now(),
    username: core.user.username,
    displayUsername: core.displayName,
  };
}

/** Announces this user's JOIN or LEAVE to the room (not to their own connections when alone in it). */
export function announcePresence(core: ConnectionCore, event: PresenceEvent): Promise<void> {
  const announcer = core.deps.announcer;
  if (announcer) {
    const person = { username: core.user.username, displayUsername: core.displayName };
    return announcer.announce(core.roomId, event, person);
  }
  return core.deps.hub.broadcast(core.roomId, systemEvent(core, event), {
    exceptUsername: core.user.username,
  });
}

/**
 * Counts the connection as listening in `language` from now on (undefined: no longer), so that speech is
 * made only for languages someone listens in (decision 0137), and the WAV of a message's speech only
 * while a client before sentence-by-sentence speech listens in its language. Called in frame order (join,
 * setLanguage, close). A count that could not be changed leaves `listening` as it was, so the counts stay
 * what the store holds.
 */
export async function listenIn(core: ConnectionCore, language: string | undefined): Promise<void> {
  const from = core.listening;
  if (from === language) return;
  try {
    await core.deps.presence.listen(core.roomId, from, language);
    if (core.protocolVersion < SPEECH_STREAM_PROTOCOL_VERSION)
      await core.deps.presence.listen(
        core.roomId,
        from && wholeAudioIn(from),
        language && wholeAudioIn(language),
      );
    core.listening = language;
  } catch (error) {
    core.log.warn({ err: error }, 'could not count the language this connection listens in');
  }
}

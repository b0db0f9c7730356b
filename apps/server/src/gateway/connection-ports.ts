import type { ErrorCode, ServerFrame, SummarizeFrame, VoiceEndFrame, VoiceStartFrame } from '@xtalk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { UserRow, UsersRepo } from '../accounts/index.js';
import type { Author, ChatService } from '../messages/index.js';
import type { RoomsRepo } from '../rooms/index.js';
import type { CatchUpDeps } from './resume.js';
import type { FrameLimitPolicy } from './frame-limits.js';
import type { Presence } from '../delivery/index.js';
import type { Returners } from '../delivery/index.js';
import type { LogSampler } from '../log-sampler.js';
import type { Departures } from '../delivery/index.js';
import type { PresenceAnnouncer } from '../delivery/index.js';
import type { HubMember, RoomHub, UserMember } from '../delivery/index.js';
import type { MetricsReport } from '../metrics/index.js';

/*
 * The ports between a connection and its frame handlers. Each handler takes two narrow ones: what it uses
 * of the node (the services below, which ConnectionDeps gathers) and what it reads and writes of its
 * connection (the views further down, which Connection implements). No handler sees the rest of either.
 */

/** What a chat, a correction or a retry uses: the message path, and the rules a chat frame is checked by. */
export interface ChatServices {
  chat: Pick<ChatService, 'post' | 'edit' | 'retranslate'>;
  languages: readonly string[];
  /** Clients of this protocol version and later must send a clientId with every chat frame. */
  clientIdRequiredFrom?: number;
  /** Where stored messages are counted (/metrics); nowhere without. */
  metrics?: Pick<MetricsReport, 'messageStored'>;
}

/** What a rename uses: the user's saved profile, the room's stored authors and presence, and the room to tell. */
export interface RenameServices {
  users: Pick<UsersRepo, 'findById'>;
  rooms: Pick<RoomsRepo, 'renameAuthor'>;
  presence: Presence;
  hub: Pick<RoomHub, 'broadcast' | 'renamedUser'>;
}

/** Who is in a room and in which languages it listens (decision 0137), and how arrivals are announced. */
export interface PresenceServices {
  presence: Presence;
  /** JOIN/LEAVE coalesced per room (decision 0110); without it each is broadcast at once. */
  announcer?: PresenceAnnouncer;
  /** Who a restart sent away: not announced as joining when back within the grace (decision 0161). */
  returners?: Returners;
  /** The grace before a closed connection leaves the room's presence (decision 0140); without it, at once. */
  departures?: Departures;
  hub: Pick<RoomHub, 'broadcast' | 'attach' | 'attachUser' | 'detach' | 'detachUser'>;
  clock: Clock;
}

/** What a join uses besides presence: the room's log to catch up from, and what READY tells the client. */
export interface JoinServices extends PresenceServices, CatchUpDeps {
  languages: readonly string[];
  /** The oldest protocol version served (a setUsername without one is version 1). */
  minProtocolVersion?: number;
  /** Clients of this protocol version and later must send a clientId with every chat frame. */
  clientIdRequiredFrom?: number;
  /** How long after sending its author may correct a message (seconds); READY says it. Default 0. */
  editWindowSeconds?: number;
  /** The frame sent right after READY with the user's balance; undefined for guests (no balance shown). */
  balanceFrame?: (user: UserRow) => Promise<ServerFrame | undefined>;
}

/** The modules a connection hands voice and summaries to, each answering this connection alone. */
export interface HandOffServices {
  /** Answers a binary frame (voice); without it, binary frames get an error frame. */
  onAudio?: (connection: Author, data: Buffer) => Promise<void>;
  /** Streamed voice (protocol 3): voiceStart and voiceEnd; without it they get an error frame. */
  onVoiceFrame?: (connection: Author, frame: VoiceStartFrame | VoiceEndFrame) => Promise<void>;
  /** "Catch me up" (protocol 6): answers to this connection alone; without it, summarize is refused. */
  onSummarize?: (connection: Author, frame: SummarizeFrame) => Promise<void>;
}

/** What every connection of a node is made with: the handlers' ports together, and the socket's own. */
export interface ConnectionDeps
  extends ChatServices, RenameServices, PresenceServices, JoinServices, HandOffServices {
  hub: RoomHub;
  rooms: RoomsRepo;
  users: UsersRepo;
  logger: FastifyBaseLogger;
  /** Drop a peer whose unsent bytes exceed this (it stopped reading). */
  maxBufferedBytes: number;
  /** Inbound frame limits and the process-wide sampled log; default: the built-in limits. */
  frameLimits?: FrameLimitPolicy;
  /** Where refused frames and stored messages are counted (/metrics); nowhere without. */
  metrics?: Pick<MetricsReport, 'frameRefused' | 'messageStored'>;
}

export type ConnectionState = 'new' | 'joining' | 'joined' | 'closed';

/** How a handler answers its client. */
export interface Replies {
  sendFrame(frame: ServerFrame): void;
  sendError(code: ErrorCode, message: string, clientId?: string): void;
}

/** Who speaks on a connection, in which room, and how far the connection has got: what a frame is checked by. */
export interface Speaker extends Replies {
  readonly roomId: string;
  readonly user: UserRow;
  readonly displayName: string;
  readonly state: ConnectionState;
  /** The protocol version the client speaks (1 until its setUsername says); older ones get older frames. */
  readonly protocolVersion: number;
}

/** A speaker whose name a rename changes, in the room's presence too when it counts there. */
export interface Renamed extends Speaker {
  user: UserRow;
  displayName: string;
  readonly present: boolean;
  readonly log: FastifyBaseLogger;
}

/** A connection as presence counts it: the person, and the language it is counted as listening in. */
export interface Listener {
  readonly roomId: string;
  readonly user: UserRow;
  readonly displayName: string;
  readonly log: FastifyBaseLogger;
  /** The protocol version the client speaks: before sentence-by-sentence speech, it is also counted for WAVs. */
  readonly protocolVersion: number;
  /** The language the room's listener counts have this connection in (presence, decision 0137); undefined: none. */
  listening: string | undefined;
}

/** A connection as a setLanguage moves it. */
export interface LanguageChooser extends Listener, Replies {
  readonly state: ConnectionState;
  language: string;
}

/** A connection as it leaves: the hub's members to detach and whether presence counts it. */
export interface Leaver extends Listener {
  readonly attached: boolean;
  readonly present: boolean;
  readonly member: HubMember & UserMember;
}

/** A connection as its join makes it: attached, caught up, READY, then counted and announced. */
export interface Joiner extends Speaker, Leaver {
  state: ConnectionState;
  protocolVersion: number;
  language: string;
  /** Live frames that arrive while the replay is being sent; flushed after READY. */
  pending: { json: Buffer; offset: number | undefined }[] | undefined;
  /** The last room offset sent on this socket: a logged frame at or before it is not sent again. */
  lastOffset: number;
  attached: boolean;
  present: boolean;
  readonly userMember: UserMember;
  /** Lines a client can cause at will, sampled (log-sampler.ts). */
  readonly sampledLog: LogSampler;
  /** The hub delivers logged frames in offset order; the replay may already have covered some. */
  sendLogged(json: Buffer, offset: number | undefined): void;
  close(code: number, reason: string): void;
}

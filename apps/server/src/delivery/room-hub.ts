import { performance } from 'node:perf_hooks';
import { PROTOCOL_VERSION, type ServerFrame } from '@xtalk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../bus/index.js';
import {
  decodeEnvelope,
  encodeAudio,
  encodeSpeech,
  encodeText,
  isAudience,
  offsetOf,
  type Audience,
  type Envelope,
} from './envelope.js';
import type { MetricsReport } from '../metrics/index.js';
import { createRecentWindows, type RecentWindows } from './recent-windows.js';
import { createLogSampler, type LogSampler } from '../log-sampler.js';
import { createRoomSequencer, type RoomLogSource, type RoomSequencer } from './room-sequencer.js';
import { userChannels } from './user-channels.js';
import { channelOf, createRoomReach, newReach, type Reach } from './room-reach.js';
import { StoredTimes } from './stored-times.js';
import { createEditRevisions, type EditRevisions } from './edit-revisions.js';

/** A connection as the hub sees it: where to deliver and what it listens in. */
/** A spoken sentence of a message, as it is fanned out beside its audio. */
export interface SpokenSentence {
  id: number;
  seq: number;
  last: boolean;
  clipId?: string;
}

export type { UserMember } from './user-channels.js';

export interface HubMember {
  readonly roomId: string;
  /** Current values; they change with setLanguage and username updates. */
  username(): string;
  language(): string;
  /** The protocol version its client speaks; absent: the newest (a member that reads every frame). */
  protocolVersion?(): number;
  /** `offset`: the room offset of a logged frame, delivered in order and once per node. */
  deliverText(json: Buffer, offset?: number): void;
  /** A message's spoken translation as one WAV (clients before sentence-by-sentence speech). */
  deliverAudio(wav: Buffer): void;
  /** One spoken sentence: its `speech` frame, then its Ogg/Opus as the very next frame. */
  deliverSpeech(json: Buffer, ogg: Buffer): void;
}

export interface RoomHubOptions {
  /** The room log: without it frames are delivered as the bus brings them (tests of one connection). */
  log?: RoomLogSource;
  logger?: FastifyBaseLogger;
  gapWaitMs?: number;
  /** How long a room's recent window read for a joiner may serve later joiners (recent-windows.ts). */
  windowTtlMs?: number;
  /** Where deliveries and their time from storing are counted (/metrics); nowhere without. */
  metrics?: Pick<MetricsReport, 'fannedOut'>;
}

const quiet = {
  warn: () => undefined,
  error: () => undefined,
} as unknown as FastifyBaseLogger;

interface LocalRoom {
  members: Set<HubMember>;
  unsubscribe: Promise<() => Promise<void>>;
  sequencer: RoomSequencer;
  started: Promise<void>;
  /**
   * When this node stored the messages not yet delivered here (with metrics only); noted before
   * publishing, as an in-process bus delivers within publish.
   */
  stored: StoredTimes | undefined;
  /** The room's recent corrections, against which late chunks of an old text are dropped. */
  revisions: EditRevisions;
  /** Whether the room's frames cross the bus (room-reach.ts). */
  reach: Reach;
}

/** Starts a room's sequencer, from its recent window when a joiner will want it (kept to share). */
async function startRoom(
  windows: RecentWindows | undefined,
  roomId: string,
  sequencer: RoomSequencer,
  limit: number | undefined,
) {
  if (!windows || limit === undefined) return sequencer.start();
  let first: Awaited<ReturnType<RecentWindows['first']>> | undefined;
  await sequencer.start(async () => {
    first = await windows.first(roomId, limit);
    return first.window.position;
  });
  first?.keep();
}

/** Hands a room frame to this node's members it is for; how many sockets it went to. */
function fanOut(room: LocalRoom, envelope: Envelope): number {
  // Decided once per frame, not per member: most frames (every chat message) are for everyone.
  const everyone = !envelope.language && !envelope.exceptUsername && envelope.fromVersion === undefined;
  const { body, offset } = envelope;
  const audience = (member: HubMember) =>
    everyone ||
    isAudience(
      envelope,
      member.username(),
      member.language(),
      member.protocolVersion?.() ?? PROTOCOL_VERSION,
    );
  let sockets = 0;
  if (envelope.kind === 'audio') {
    for (const member of room.members)
      if (audience(member)) {
        member.deliverAudio(body);
        sockets++;
      }
    return sockets;
  }
  if (envelope.kind === 'speech') {
    const audio = envelope.audio!;
    for (const member of room.members)
      if (audience(member)) {
        member.deliverSpeech(body, audio);
        sockets++;
      }
    return sockets;
  }
  for (const member of room.members)
    if (audience(member)) {
      member.deliverText(body, offset);
      sockets++;
    }
  return sockets;
}

/** Every frame of a room fails to publish while the bus is away: sampled per room. */
function publishFailed(sampled: LogSampler, error: unknown, roomId: string, frame: ServerFrame) {
  sampled.warn('publish', { err: error, roomId, frame: frame.type }, 'publishing to the bus failed', roomId);
}

/** What the hub sends to a room, serialised once here: over the bus, or to this node alone (room-reach.ts). */
function roomSenders(
  send: (roomId: string, payload: Buffer) => Promise<void>,
  rooms: Map<string, LocalRoom>,
  sampled: LogSampler,
  metrics: RoomHubOptions['metrics'],
  own: { nodeId: string; local: (roomId: string, payload: Buffer) => void },
  windows: RecentWindows | undefined,
) {
  return {
    /**
     * Sends a frame to the room (or the part of it in `audience`), serialised once here. Never throws: a
     * frame that could not be published is logged and reaches this node's members all the same, a logged
     * one from the room log (other nodes read it when their bus is back), any other at once.
     */
    async broadcast(roomId: string, frame: ServerFrame, audience: Audience = {}): Promise<void> {
      if (metrics && frame.type === 'message' && frame.offset !== undefined)
        rooms.get(roomId)?.stored?.add(frame.offset, performance.now());
      // a window a join read for the room's start here is older than this change, which a room started
      // from it would not hear
      if (offsetOf(frame) !== undefined) windows?.withdraw(roomId);
      const payload = encodeText(frame, audience, own.nodeId);
      try {
        await send(roomId, payload);
      } catch (error) {
        publishFailed(sampled, error, roomId, frame);
        if (offsetOf(frame) !== undefined) await rooms.get(roomId)?.sequencer.catchUp();
        else own.local(roomId, payload);
      }
    },

    async sendAudio(
      roomId: string,
      language: string,
      wav: Uint8Array,
      exceptUsername: string,
    ): Promise<void> {
      await send(roomId, encodeAudio(wav, { language, exceptUsername }));
    },

    async sendSpeech(
      roomId: string,
      language: string,
      speech: SpokenSentence,
      ogg: Uint8Array,
      exceptUsername: string,
    ): Promise<void> {
      const frame: ServerFrame = { type: 'speech', language, ...speech, bytes: ogg.length };
      await send(roomId, encodeSpeech(frame, ogg, { language, exceptUsername }));
    },
  };
}

/** This node's first member of the room arrives: it subscribes, says hello, and starts the sequencer. */
function openRoom(
  roomId: string,
  rooms: Map<string, LocalRoom>,
  bus: Bus,
  options: RoomHubOptions,
  hub: {
    dispatch: (roomId: string, payload: Buffer) => void;
    deliver: (roomId: string, envelope: Envelope) => void;
    hello: (roomId: string) => Promise<void>;
    start: (sequencer: RoomSequencer) => Promise<void>;
    logger: FastifyBaseLogger;
  },
): LocalRoom {
  const subscription = bus.subscribe(channelOf(roomId), (payload) => hub.dispatch(roomId, payload));
  const sequencer = createRoomSequencer(roomId, options.log, (envelope) => hub.deliver(roomId, envelope), {
    gapWaitMs: options.gapWaitMs ?? 150,
    pageSize: 500,
    logger: hub.logger,
  });
  const started = subscription.then(() => {
    void hub.hello(roomId);
    return hub.start(sequencer);
  });
  const stored = options.metrics && new StoredTimes();
  const room: LocalRoom = {
    members: new Set(),
    unsubscribe: subscription,
    sequencer,
    started,
    stored,
    reach: newReach(),
    revisions: createEditRevisions(),
  };
  rooms.set(roomId, room);
  // a failed start is the joiner's error (attach); the next joiner of an empty room tries again
  started.catch(() => {
    if (rooms.get(roomId) === room && room.members.size === 0) rooms.delete(roomId);
  });
  return room;
}

/**
 * This node's members of each room. The node subscribes to a room's channel while it has a member there;
 * a room's frames cross the bus while another node holds the room, and go to this node's members alone
 * while none does (room-reach.ts). Logged frames pass a per-room sequencer, which fills from the database
 * whatever the bus lost.
 */
export function createRoomHub(bus: Bus, options: RoomHubOptions = {}) {
  const logger = options.logger ?? quiet;
  const sampled = createLogSampler(logger);
  const { metrics } = options;
  const rooms = new Map<string, LocalRoom>();
  const read = options.log?.recentWindow;
  const windows =
    read &&
    createRecentWindows({
      read,
      delivered: (roomId) => rooms.get(roomId)?.sequencer.delivered(),
      ttlMs: options.windowTtlMs ?? 1000,
    });

  function deliver(roomId: string, envelope: Envelope) {
    const room = rooms.get(roomId);
    if (!room || room.revisions.stale(envelope)) return;
    const sockets = fanOut(room, envelope);
    if (metrics) metrics.fannedOut(sockets, envelope.offset ? room.stored?.take(envelope.offset) : undefined);
  }

  const reach = createRoomReach(bus, (roomId) => rooms.get(roomId)?.reach, dispatch);

  function dispatch(roomId: string, payload: Buffer) {
    if (reach.heard(roomId, payload)) return;
    const envelope = decodeEnvelope(payload);
    if (envelope && envelope.from !== reach.nodeId) rooms.get(roomId)?.sequencer.push(envelope);
  }

  // The bus came back after an outage: whatever it dropped meanwhile is read from the log, and the other
  // nodes hear again that this one holds its rooms (a hello lost in the outage left them alone).
  bus.onReconnect?.(() => {
    for (const [roomId, room] of rooms) {
      void room.sequencer.catchUp();
      void reach.hello(roomId);
    }
  });

  return {
    ...userChannels(bus),
    ...roomSenders(reach.send, rooms, sampled, metrics, { nodeId: reach.nodeId, local: dispatch }, windows),
    /**
     * Resolves once the node is subscribed, so nothing published after it is missed. `window`: the joiner
     * will ask for the recent window of this many messages; a room's first member here reads it as the
     * position the room starts at, so the join and the start cost one statement.
     */
    async attach(member: HubMember, { window }: { window?: number } = {}): Promise<void> {
      let room = rooms.get(member.roomId);
      room ??= openRoom(member.roomId, rooms, bus, options, {
        dispatch,
        deliver,
        hello: reach.hello,
        start: (sequencer) => startRoom(windows, member.roomId, sequencer, window),
        logger,
      });
      room.members.add(member);
      try {
        await room.started;
      } catch (error) {
        room.members.delete(member);
        throw error;
      }
    },

    /**
     * Called before a join reads a room not open here: what it read starts the room on this node, unless
     * the room changed on this node meanwhile (decision 0265).
     */
    expectStart: (roomId: string) => windows?.expect(roomId) ?? (() => undefined),

    /** Whether the room has members on this node. */
    holds: (roomId: string) => rooms.has(roomId),

    async detach(member: HubMember): Promise<void> {
      const room = rooms.get(member.roomId);
      if (!room || !room.members.delete(member) || room.members.size > 0) return;
      rooms.delete(member.roomId);
      room.sequencer.stop();
      windows?.drop(member.roomId);
      const unsubscribe = await room.unsubscribe.catch(() => undefined);
      await unsubscribe?.();
    },

    /**
     * The room's position and latest `limit` messages, for a member attached to it (joiners without a
     * resume position); read once and shared while no later frame was delivered. Undefined without a log
     * that reads windows.
     */
    recentWindow: windows?.get,

    /** Local member counts, for health and the benchmark. */
    stats() {
      let connections = 0;
      for (const room of rooms.values()) connections += room.members.size;
      return { rooms: rooms.size, connections };
    },
  };
}
export type RoomHub = ReturnType<typeof createRoomHub>;

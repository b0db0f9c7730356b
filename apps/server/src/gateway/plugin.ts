import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { createLogSampler } from '../log-sampler.js';
import { appSources } from '../metrics/probes.js';
import type { FairRooms } from '../rooms/fair-rooms.js';
import { createChat } from './chat.js';
import type { ConnectionDeps } from './connection-core.js';
import { frameLimitSettings } from './frame-limits.js';
import { createGateway, type Gateway } from './gateway.js';
import { balanceFrameOf, createReturners, socketCaps, socketOrigins, watchNodes } from './gateway-deps.js';
import { withMemoryFallback } from './presence-fallback.js';
import { nodeShares, type NodeHeartbeat } from './presence-nodes.js';
import { createMemoryPresence, createRedisPresence, type Presence } from './presence.js';
import { createRoomHub, type RoomHub } from './room-hub.js';

/*
 * Real time, in two plugins because the rest sits between them: the room hub and presence, which the
 * translation service and the balance frames send through, come before them; the WebSocket gateway,
 * which calls all of them, comes after.
 */

const REPLAY_LIMIT = 500;
const MAX_FRAME_BYTES = 2 * 1024 * 1024;
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    /** A room's frames, fanned out to its sockets on every node. */
    xtalkHub: RoomHub;
    /** Who listens in which language in each room, across nodes. */
    xtalkPresence: Presence;
    /** This process in the shared presence counts (presence-nodes.ts). */
    xtalkNodeId: string;
    /** The sockets, the message path's fair queue (health reads it) and this node's heartbeat. */
    /**
     * What every connection of this node is made with: tests make connections over fake sockets with it
     * (thousands of members without a socket each), through the real hub, presence and announcer.
     */
    xtalkConnectionDeps: ConnectionDeps;
    xtalkRealtime: { gateway: Gateway; fairRooms: FairRooms; heartbeat: NodeHeartbeat | undefined };
  }
}

export const roomHubPlugin = fp(
  async (app) => {
    const redis = app.xtalkRedis;
    const redisOutage = app.xtalkRedisOutage;
    // this process's share of the shared presence counts, taken back out should it die (presence-nodes.ts)
    const nodeId = randomUUID();
    app.decorate('xtalkNodeId', nodeId);
    app.decorate(
      'xtalkPresence',
      redis && redisOutage
        ? withMemoryFallback(createRedisPresence(redis, nodeShares(nodeId)), redisOutage)
        : createMemoryPresence(),
    );
    const options = { log: app.xtalkRooms.log, logger: app.log, metrics: app.xtalkMetrics.report };
    app.decorate('xtalkHub', createRoomHub(app.xtalkBus, options));
  },
  { name: 'xtalk-hub', dependencies: ['xtalk-bus', 'xtalk-rooms', 'xtalk-metrics'] },
);

export interface GatewayPluginOptions {
  config: Config;
  clock: Clock;
  heartbeatMs?: number;
  /** The database is in memory: nobody is remembered across a restart. */
  inMemoryDb?: boolean;
  /** Voice input for the connections, from the voice module (which builds on this one). */
  voice: (deps: VoiceDeps) => Pick<ConnectionDeps, 'onAudio' | 'onVoiceFrame'>;
}

/** What voice input is made from: this node's chat and hub, and the engines. */
export interface VoiceDeps {
  chat: ReturnType<typeof createChat>['chat'];
  translation: FastifyInstance['xtalkTranslation']['service'];
  provider: FastifyInstance['xtalkAi'];
  hub: RoomHub;
  logger: FastifyBaseLogger;
  clock: Clock;
  metrics: FastifyInstance['xtalkMetrics']['report'];
}

export const gatewayPlugin = fp<GatewayPluginOptions>(
  async (app, { config, clock, heartbeatMs, inMemoryDb, voice }) => {
    const { xtalkHub: hub, xtalkRedis: redis, xtalkPresence: presence } = app;
    const { repo: rooms, log: roomLog, handoffs } = app.xtalkRooms;
    const { authenticator, users } = app.xtalkAuth;
    const { service: translation, supersession } = app.xtalkTranslation;
    const report = app.xtalkMetrics.report;
    const provider = app.xtalkAi;
    const outlets = {
      onMessage: translation.onMessage,
      onEdited: supersession.onEdited,
      retranslate: translation.retranslate,
    };
    const { chat, fairRooms } = createChat(config, rooms, hub, outlets, app.log);
    const sampledLog = createLogSampler(app.log, clock);
    const { heartbeat, ...presenceDeps } = watchNodes(
      config,
      { redis, nodeId: app.xtalkNodeId, presence },
      hub,
      clock,
      app.log,
    );
    const connectionDeps: ConnectionDeps = {
      hub,
      ...presenceDeps,
      returners: createReturners(config, redis, clock, inMemoryDb),
      chat,
      rooms,
      users,
      languages: config.LANGUAGES,
      clock,
      logger: app.log,
      // a joiner's recent window is the hub's shared copy while the room has not moved on (decision 0134)
      log: { ...roomLog, recentWindow: hub.recentWindow ?? roomLog.recentWindow },
      replayLimit: REPLAY_LIMIT,
      balanceFrame: balanceFrameOf(app.xtalkCredits.ledger, clock),
      resumeMaxEvents: config.RESUME_MAX_EVENTS,
      editWindowSeconds: config.EDIT_WINDOW_SECONDS,
      minProtocolVersion: config.MIN_PROTOCOL_VERSION,
      clientIdRequiredFrom: config.CLIENT_ID_REQUIRED_FROM_PROTOCOL,
      maxBufferedBytes: MAX_BUFFERED_BYTES,
      frameLimits: { settings: frameLimitSettings(config), log: sampledLog },
      onSummarize: app.xtalkSummaries.summarize,
      metrics: report,
      ...voice({
        chat,
        translation,
        provider,
        hub,
        logger: app.log,
        clock,
        metrics: report,
      }),
    };
    app.decorate('xtalkConnectionDeps', connectionDeps);
    const gateway = createGateway(app, {
      authenticator,
      rooms,
      handoffs,
      allowedOrigins: socketOrigins(config),
      heartbeatMs: heartbeatMs ?? 30_000,
      maxFrameBytes: MAX_FRAME_BYTES,
      clock,
      logger: app.log,
      caps: socketCaps(config, clock, sampledLog),
      sessionEnds: app.xtalkAuth.sessionEnds,
      connectionDeps,
      metrics: report,
    });
    app.xtalkMetrics.watch(
      appSources({ gateway, hub, bus: app.xtalkBus, db: app.xtalkDb, readiness: app.xtalkReadiness }),
    );
    app.decorate('xtalkRealtime', { gateway, fairRooms, heartbeat });
  },
  {
    name: 'xtalk-gateway',
    dependencies: [
      'xtalk-hub',
      'xtalk-auth',
      'xtalk-rooms',
      'xtalk-translation',
      'xtalk-summary',
      'xtalk-readiness',
    ],
  },
);

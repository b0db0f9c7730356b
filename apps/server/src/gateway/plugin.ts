import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Departures, NodeHeartbeat } from '../delivery/index.js';
import { createLogSampler } from '../log-sampler.js';
import { appSources } from '../metrics/index.js';
import { REPLAY_LIMIT } from '../rooms/index.js';
import type { ConnectionDeps } from './connection-ports.js';
import { frameLimitSettings } from './frame-limits.js';
import { createGateway, type Gateway } from './gateway.js';
import { balanceFrameOf, createReturners, socketCaps, socketOrigins, watchNodes } from './gateway-deps.js';

/*
 * The gateway: sockets and frames, the top of the journey. A connection parses a frame and hands it to
 * the message path, voice or summaries; the hub delivers what the room says back to its socket.
 */

const MAX_FRAME_BYTES = 2 * 1024 * 1024;
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * What every connection of this node is made with: tests make connections over fake sockets with it
     * (thousands of members without a socket each), through the real hub, presence and announcer.
     */
    xtalkConnectionDeps: ConnectionDeps;
    /** The sockets and this node's heartbeat. */
    xtalkGateway: { gateway: Gateway; heartbeat: NodeHeartbeat | undefined };
  }
}

export interface GatewayPluginOptions {
  config: Config;
  clock: Clock;
  heartbeatMs?: number;
  /** The LEAVE grace; by default a timer of LEAVE_GRACE_SECONDS. */
  departures?: Departures;
  /** The database is in memory: nobody is remembered across a restart. */
  inMemoryDb?: boolean;
}

/** What a connection is made with, from the modules below the gateway. */
function connectionDepsOf(
  app: FastifyInstance,
  { config, clock, inMemoryDb, departures }: GatewayPluginOptions,
) {
  const { xtalkHub: hub, xtalkRedis: redis, xtalkPresence: presence } = app;
  const { repo: rooms, log: roomLog } = app.xtalkRooms;
  const sampledLog = createLogSampler(app.log, clock);
  const { heartbeat, ...presenceDeps } = watchNodes(
    config,
    { redis, nodeId: app.xtalkNodeId, presence },
    hub,
    clock,
    app.log,
    departures,
  );
  const deps: ConnectionDeps = {
    hub,
    ...presenceDeps,
    returners: createReturners(config, redis, clock, inMemoryDb),
    chat: app.xtalkMessages.chat,
    rooms,
    users: app.xtalkAuth.users,
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
    metrics: app.xtalkMetrics?.report,
    onAudio: app.xtalkVoice.onAudio,
    onVoiceFrame: app.xtalkVoice.onVoiceFrame,
  };
  return { deps, heartbeat, sampledLog };
}

export const gatewayPlugin = fp<GatewayPluginOptions>(
  async (app, options) => {
    const { config, clock, heartbeatMs } = options;
    const { deps: connectionDeps, heartbeat, sampledLog } = connectionDepsOf(app, options);
    app.decorate('xtalkConnectionDeps', connectionDeps);
    const gateway = createGateway(app, {
      authenticator: app.xtalkAuth.authenticator,
      rooms: app.xtalkRooms.repo,
      handoffs: app.xtalkRooms.handoffs,
      allowedOrigins: socketOrigins(config),
      heartbeatMs: heartbeatMs ?? 30_000,
      maxFrameBytes: MAX_FRAME_BYTES,
      clock,
      logger: app.log,
      caps: socketCaps(config, clock, sampledLog),
      sessionEnds: app.xtalkAuth.sessionEnds,
      connectionDeps,
      metrics: app.xtalkMetrics?.report,
    });
    const { xtalkHub: hub, xtalkBus: bus, xtalkDb: db, xtalkReadiness: readiness } = app;
    app.xtalkMetrics?.watch(appSources({ gateway, hub, bus, db, readiness }));
    app.decorate('xtalkGateway', { gateway, heartbeat });
  },
  {
    name: 'xtalk-gateway',
    dependencies: [
      'xtalk-delivery',
      'xtalk-auth',
      'xtalk-rooms',
      'xtalk-messages',
      'xtalk-voice',
      'xtalk-summary',
      'xtalk-readiness',
    ],
  },
);

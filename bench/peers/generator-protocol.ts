import type { Summary } from '../lib/stats.js';
import type { DeliveryCounts } from './delivery-check.js';

/* The IPC messages between the fan-out orchestrator and its load generator child process. */

/** `xtalk`: the real server; `ws`: bench/peers/ws-broadcast.mjs; `socketio`: bench/peers/socketio-rooms.mjs. */
export type PeerKind = 'xtalk' | 'ws' | 'socketio';

export type GeneratorRequest =
  | {
      cmd: 'prepare';
      kind: PeerKind;
      baseUrl: string;
      wsBase: string;
      rooms: number[];
      concurrency: number;
      /** XTalk on several nodes: a room's members sign in, join and connect on these in turn. */
      nodes?: Array<{ baseUrl: string; wsBase: string }>;
      /**
       * Each member's socket opens, and is READY, right after its join, before the next joins: a join
       * then sees the people already in the room (a hot room's spread, decision 0250).
       */
      openOnJoin?: boolean;
    }
  | {
      cmd: 'open';
      concurrency: number;
      /** Open only part `index` of `of` of each room's members (in join order), e.g. its first quarter. */
      part?: { index: number; of: number };
    }
  | {
      cmd: 'load';
      rate: number;
      seconds: number;
      warmupSeconds: number;
      drainMs: number;
      /** Room 0's first members take turns to send (XTalk allows each 2 messages a second). */
      senders: number;
    }
  | { cmd: 'close' };

export interface LoadResult extends DeliveryCounts {
  messages: number;
  sendSeconds: number;
  deliveries: number;
  expected: number;
  missing: number;
  lateOrUnknown: number;
  latencyMs: Summary;
  generatorCpuMs: number;
  generatorLoopDelayP99Ms: number;
}

export type GeneratorReply =
  /** `sockets`: how many members' sockets each node (by wsBase) holds or will hold. */
  | { cmd: 'prepared'; roomIds: string[]; sockets: Record<string, number> }
  | { cmd: 'opened'; ms: number; unexpectedCloses: number }
  | { cmd: 'measuring' }
  | { cmd: 'sent' }
  | { cmd: 'loaded'; result: LoadResult; unexpectedCloses: number }
  | { cmd: 'closed'; unexpectedCloses: number }
  | { cmd: 'failed'; error: string };

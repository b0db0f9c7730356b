import { z } from 'zod';
import { csv, optionalString } from './config-values.js';

/** The process itself: where it listens, what it stands on, how it reports and how it stops. */
export const serviceSettings = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(8787),
  /**
   * The address people open: the one base of every absolute URL the server writes (mailed links, the
   * SIWE domain, OAuth redirects, checkout addresses), and the origin that may open the WebSocket.
   * Required in production; elsewhere http://localhost:PORT. Never taken from a request's Host.
   */
  PUBLIC_URL: optionalString.refine((value) => value === undefined || /^https?:\/\/[^/?#\s]+/.test(value), {
    message: 'PUBLIC_URL must be an http:// or https:// address.',
  }),
  /** Extra browser origins allowed to open the WebSocket, comma-separated. */
  ALLOWED_ORIGINS: csv,
  /** The nodes' own ws(s):// addresses the web client opens its socket on, in turn (empty: the page's). */
  PUBLIC_WS_ENDPOINTS: csv.pipe(
    z.array(z.string().regex(/^wss?:\/\/[^/?#\s]+$/, 'each must be a ws:// or wss:// address, no path')),
  ),
  /** How many people of one room a node takes before the room's next joiners start on its next node. */
  ROOM_PEOPLE_PER_NODE: z.coerce.number().int().min(1).default(1000),
  DATA_DIR: z.string().default('./data'),
  /** Unset: embedded PGlite in DATA_DIR/db. */
  DATABASE_URL: optionalString,
  /** Unset: fan-out and presence stay in this process (one node). */
  REDIS_URL: optionalString,
  /** The longest a Redis command on a request's path waits before the node goes on without Redis (ms). */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(500),
  /** How many proxies in front of the server to trust for the client address (X-Forwarded-For hops). */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * Whether this node keeps metrics: off, no collector exists, nothing on a message's path reports, and
   * GET /metrics is not served (the bench's A/B of what the metrics cost).
   */
  METRICS_ENABLED: z.enum(['on', 'off']).default('on'),
  /** Bearer token of GET /metrics. Unset: /metrics answers loopback requests only. */
  METRICS_TOKEN: optionalString.refine((value) => value === undefined || value.length >= 16, {
    message: 'METRICS_TOKEN must be at least 16 characters.',
  }),
  /** On SIGTERM, the window over which this node's sockets are closed with 1012 (decision 0144). */
  DRAIN_SECONDS: z.coerce.number().min(0).max(600).default(10),
  /** From SIGTERM, how long translations already paid for may run before they are recorded as failed. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(20),
  /** With Redis: seconds after its last heartbeat a node's presence is taken out by the others. */
  NODE_TTL_SECONDS: z.coerce.number().min(1).max(3600).default(15),
  /** Chat messages of one room waiting to be stored on this node before more are refused (busy). */
  ROOM_QUEUE_MAX: z.coerce.number().int().positive().default(64),
  /** Messages stored at once by this node; rooms take turns for these slots. */
  STORE_CONCURRENCY: z.coerce.number().int().positive().default(4),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

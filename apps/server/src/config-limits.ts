import { z } from 'zod';

/** The limits on every door (README "Limits", docs/decisions/0070-limits-on-every-door.md). */
export const limitSettings = {
  /** Bot-check challenges per IP per minute. */
  RATE_LIMIT_BOTCHECK_PER_MINUTE: z.coerce.number().int().positive().default(30),
  /** Guest users created per IP per minute (POST /api/auth/guest). */
  GUESTS_PER_MINUTE_PER_IP: z.coerce.number().int().positive().default(10),
  /** Sign-in requests (Google login, callback, code exchange) per IP per minute. */
  RATE_LIMIT_SIGN_IN_PER_MINUTE: z.coerce.number().int().positive().default(20),
  /** Other API requests (rooms, players, profile, history, payments) per user per minute. */
  RATE_LIMIT_API_PER_MINUTE_PER_USER: z.coerce.number().int().positive().default(120),
  /** The same routes per IP per minute (many people may share one address). */
  RATE_LIMIT_API_PER_MINUTE_PER_IP: z.coerce.number().int().positive().default(600),
  /** Room joins (POST /xtalk: a new socket session each) per user per minute. */
  ROOM_JOINS_PER_MINUTE_PER_USER: z.coerce.number().int().positive().default(30),
  /** Room codes asked for that do not exist, per user per minute (guessing codes). */
  ROOM_LOOKUP_MISSES_PER_MINUTE: z.coerce.number().int().positive().default(10),
  /**
   * The same per IP per minute, high enough for the people behind one NAT; at it, only those who missed
   * themselves are refused.
   */
  ROOM_LOOKUP_MISSES_PER_MINUTE_PER_IP: z.coerce.number().int().positive().default(500),
  /** Open WebSockets per IP on one node. */
  MAX_SOCKETS_PER_IP: z.coerce.number().int().positive().default(64),
  /** Open WebSockets per user on one node (one per session; a new one for a session replaces the old). */
  MAX_SOCKETS_PER_USER: z.coerce.number().int().positive().default(4),
  /** Inbound WebSocket frames of any kind (valid or not) per connection per second, and the burst. */
  WS_FRAMES_PER_SECOND: z.coerce.number().positive().default(10),
  WS_FRAME_BURST: z.coerce.number().int().positive().default(30),
  /** Chat frames per connection per second, and the burst. */
  WS_CHAT_PER_SECOND: z.coerce.number().positive().default(2),
  WS_CHAT_BURST: z.coerce.number().int().positive().default(8),
  /** setUsername, setLanguage and updateUsername frames per connection per second, and the burst. */
  WS_CONTROL_PER_SECOND: z.coerce.number().positive().default(1),
  WS_CONTROL_BURST: z.coerce.number().int().positive().default(10),
  /** Invalid frames (bad JSON, failing the schema) per connection per second, and the burst. */
  WS_INVALID_PER_SECOND: z.coerce.number().positive().default(1),
  WS_INVALID_BURST: z.coerce.number().int().positive().default(10),
  /** Refused frames in a row after which the connection is closed (1008) instead of answered. */
  WS_FLOOD_CLOSE_AFTER: z.coerce.number().int().positive().default(100),
  /** Seconds a user closed for flooding may not open a socket again (on that node). */
  WS_FLOOD_COOLDOWN_SECONDS: z.coerce.number().int().min(0).default(60),
};

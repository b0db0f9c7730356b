import {
  CLIENT_ID_REQUIRED_PROTOCOL_VERSION,
  MIN_PROTOCOL_VERSION,
  PROTOCOL_VERSION,
  languageSchema,
} from '@xtalk/protocol';
import { z } from 'zod';
import { optionalString } from './config-values.js';

/** Rooms and the protocol their sockets speak: languages, corrections, resuming, presence, retention. */
export const roomSettings = {
  /** Languages every message is translated into. */
  LANGUAGES: z
    .string()
    .default('en,ja')
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(languageSchema).min(1)),
  /** How long after sending its author may correct a message (seconds); 0 turns corrections off. */
  EDIT_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .default(600),
  /**
   * How far behind (in room offsets: messages and later changes) a reconnecting client is replayed
   * exactly what it missed; further behind it is told RESYNC and gets the recent window.
   */
  RESUME_MAX_EVENTS: z.coerce.number().int().positive().max(100_000).default(1000),
  /** The oldest protocol version served; a setUsername without protocolVersion counts as version 1. */
  MIN_PROTOCOL_VERSION: z.coerce.number().int().min(1).max(PROTOCOL_VERSION).default(MIN_PROTOCOL_VERSION),
  /**
   * Clients of this protocol version and later must send a clientId with every chat frame (READY says
   * so; one without is refused). From 2 on (the version that brought clientId); above the newest
   * version, no client must.
   */
  CLIENT_ID_REQUIRED_FROM_PROTOCOL: z.coerce
    .number()
    .int()
    .min(2)
    .max(1_000_000)
    .default(CLIENT_ID_REQUIRED_PROTOCOL_VERSION),
  /** Seconds a closed connection stays in the room's presence, so a quick return shows no LEAVE/JOIN. */
  LEAVE_GRACE_SECONDS: z.coerce.number().min(0).max(300).default(5),
  /** Rooms with more people than this are hot: current clients get counts, not every name (decision 0166). */
  HOT_ROOM_ABOVE: z.coerce.number().int().min(1).default(200),
  /** How long a hot room stays quiet before its exact count goes out. */
  HOT_ROOM_SETTLE_MS: z.coerce.number().int().min(10).max(600_000).default(2000),
  /** Messages older than this many days are removed with all that is stored about them; unset: kept. */
  MESSAGE_RETENTION_DAYS: optionalString.pipe(
    z.coerce.number<string | undefined>().int().positive().max(36_500).optional(),
  ),
};

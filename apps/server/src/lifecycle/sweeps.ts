import type { FastifyBaseLogger } from 'fastify';
import { deleteExpiredAuthRows } from '../accounts/index.js';
import { deleteIdleGuests } from '../use-cases/index.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { deleteExpiredSessions, trimRoomChanges } from '../rooms/index.js';
import type { Db } from '../store/index.js';
import { startExpirySweeper } from '../store/index.js';

const EXPIRY_SWEEP_MS = 10 * 60_000;

/** Expired sessions and codes, and guests idle past the retention, removed in the background. */
export function startSweeps(config: Config, db: Db, clock: Clock, log: FastifyBaseLogger) {
  const retentionMs = config.GUEST_RETENTION_SECONDS * 1000;
  return startExpirySweeper(
    [
      (now: Date) => deleteExpiredAuthRows(db, now),
      (now: Date) => deleteExpiredSessions(db, now),
      // guests go with their links, memberships and sessions; their messages stay
      async (now: Date) => void (await deleteIdleGuests(db, new Date(now.getTime() - retentionMs))),
      // the resume log past what a resume may replay (RESUME_MAX_EVENTS)
      () => trimRoomChanges(db, config.RESUME_MAX_EVENTS),
    ],
    clock,
    EXPIRY_SWEEP_MS,
    (error) => log.warn({ err: error }, 'removing expired sessions, codes or idle guests failed'),
  );
}

import type { FastifyBaseLogger } from 'fastify';
import { deleteExpiredAuthRows } from '../accounts/index.js';
import { deleteIdleGuests } from '../use-cases/index.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { deleteExpiredSessions, removeOldMessages, trimRoomChanges } from '../rooms/index.js';
import type { Db } from '../store/index.js';
import { startExpirySweeper, type ExpirySweep } from '../store/index.js';

const EXPIRY_SWEEP_MS = 10 * 60_000;
const DAY_MS = 24 * 3600_000;

/**
 * Messages past MESSAGE_RETENTION_DAYS (decision 0216), in small batches that end early when the server
 * stops; none without the setting.
 */
function retentionSweep(config: Config, db: Db, signal: AbortSignal): ExpirySweep[] {
  const days = config.MESSAGE_RETENTION_DAYS;
  if (days === undefined) return [];
  return [
    async (now: Date) =>
      void (await removeOldMessages(db, { before: now.getTime() - days * DAY_MS, signal })),
  ];
}

/**
 * Expired sessions and codes, guests idle past their retention and messages past theirs, removed in the
 * background.
 */
export function startSweeps(config: Config, db: Db, clock: Clock, log: FastifyBaseLogger) {
  const retentionMs = config.GUEST_RETENTION_SECONDS * 1000;
  const stopping = new AbortController();
  const sweeper = startExpirySweeper(
    [
      (now: Date) => deleteExpiredAuthRows(db, now),
      (now: Date) => deleteExpiredSessions(db, now),
      // guests go with their links, memberships and sessions; their messages stay
      async (now: Date) => void (await deleteIdleGuests(db, new Date(now.getTime() - retentionMs))),
      ...retentionSweep(config, db, stopping.signal),
      // the resume log past what a resume may replay (RESUME_MAX_EVENTS)
      () => trimRoomChanges(db, config.RESUME_MAX_EVENTS),
    ],
    clock,
    EXPIRY_SWEEP_MS,
    (error) =>
      log.warn({ err: error }, 'removing expired sessions, codes, idle guests or old messages failed'),
  );
  return {
    async stop() {
      stopping.abort();
      await sweeper.stop();
    },
  };
}

import type { ErrorFrame, PauseReason } from '@xtalk/protocol';
import type { Logger } from '../ai/index.js';
import { noticeFrame } from './notices.js';
import type { UserOutput } from './ports.js';
import type { PausableJob } from './types.js';

export type { PausableJob } from './types.js';

/*
 * Authors who could not pay (Meter.charge refused): the author is told once (on all of their connections),
 * each room gets one line (not one per message), and their refused messages are kept, a bounded few, until
 * `resume` says the balance grew; then each is queued again without what was already done, and a later
 * refusal is told again.
 */

/** What an author who cannot pay is told, in the words of `InsufficientCreditsError`. */
export function creditsPausedNotice(message: string, guest: boolean): ErrorFrame {
  const reason: PauseReason = guest ? 'guest_allowance' : 'no_credits';
  return noticeFrame(message, { kind: 'credits_paused', params: { reason } });
}

/** Refused messages kept per author; older ones are given up (they stay untranslated). */
const MAX_PAUSED_JOBS = 20;

interface Paused<J> {
  authorTold: boolean;
  roomsTold: Set<string>;
  jobs: J[];
}

export interface PausedAuthorsDeps<J> {
  users: UserOutput | undefined;
  /** Sends a notice to a room, except to `exceptUsername`'s connections if given. */
  tellRoom(roomId: string, notice: ErrorFrame, exceptUsername?: string): void;
  requeue(job: J): void;
  logger: Logger;
}

export function createPausedAuthors<J extends PausableJob>(deps: PausedAuthorsDeps<J>) {
  const paused = new Map<string, Paused<J>>();

  function pausedOf(userId: string): Paused<J> {
    let entry = paused.get(userId);
    if (!entry) paused.set(userId, (entry = { authorTold: false, roomsTold: new Set(), jobs: [] }));
    return entry;
  }

  return {
    /** A task of `job` was refused: keep the job, tell the author and the room if not told yet. */
    refused(job: J, authorNotice: string, guest: boolean): void {
      const entry = pausedOf(job.author.userId);
      const reason: PauseReason = guest ? 'guest_allowance' : 'no_credits';
      const kept = entry.jobs.findIndex((j) => j.roomId === job.roomId && j.message.id === job.message.id);
      // the newest job for a message is the one to resume (a correction made a new one for its new text)
      if (kept >= 0) entry.jobs[kept] = job;
      else {
        entry.jobs.push(job);
        if (entry.jobs.length > MAX_PAUSED_JOBS) entry.jobs.shift();
      }
      if (!entry.authorTold) {
        entry.authorTold = true;
        void deps.users
          ?.sendToUser(job.author.userId, creditsPausedNotice(authorNotice, guest))
          .catch((error: unknown) => deps.logger.error({ err: error }, 'translation: author notice failed'));
      }
      if (entry.roomsTold.has(job.roomId)) return;
      entry.roomsTold.add(job.roomId);
      const who = job.message.displayUsername ?? job.message.username;
      const why = guest ? "has used a guest's AI allowance for today" : 'has run out of credits';
      const line = `Translation paused: ${who} ${why}. Their messages are still delivered, untranslated.`;
      // the author has their own notice (when it can reach them), so the room line is for the others
      deps.tellRoom(
        job.roomId,
        noticeFrame(line, { kind: 'translation_paused', params: { name: who, reason } }),
        deps.users ? job.message.username : undefined,
      );
    },

    /** The author's balance grew: queue their refused work again. */
    resume(userId: string): void {
      const entry = paused.get(userId);
      if (!entry) return;
      paused.delete(userId);
      for (const job of entry.jobs) {
        if (job.running) job.resumeWhenDone = true;
        else deps.requeue(job);
      }
      if (entry.jobs.length > 0)
        deps.logger.info({ userId, jobs: entry.jobs.length }, 'translation: resumed');
    },
  };
}

import type { ErrorFrame, MessageFrame } from '@xtalk/protocol';
import { isInsufficientCredits } from './errors.js';
import { creditsPausedNotice } from './paused-authors.js';
import type { Meter, Usage } from './ports.js';
import { characters } from './engine-usage.js';
import type { Author, Job } from './types.js';

/*
 * "Try again" (docs/decisions/0186-try-again-paid-up-front.md). The author's balance is checked before
 * anything is queued: an author who cannot pay for the failed languages is answered at once with the
 * notice a chat without credits gets, and no work is kept for later (they ask again when they can pay).
 * The work is paid under keys made from the request, so a frame sent again is paid once; a request already
 * queued or running here is not queued a second time.
 */

export interface RetranslationDeps {
  meter: Meter;
  /** Queues the message's missing work paid under `chargeKey`; false when the room's queue refused it. */
  enqueue(roomId: string, message: MessageFrame, author: Author, chargeKey: string): boolean;
  /** What follows the jobs of every message (the supersession), told here too when a job ends. */
  tracked: { track(job: Job): void; done(job: Job): void };
}

export function createRetranslation(deps: RetranslationDeps) {
  /** The requests queued or running on this node, by their charge key. */
  const pending = new Set<string>();

  /** What the failed languages cost as translations, the author's to pay. */
  const usagesOf = (roomId: string, message: MessageFrame, author: Author): Usage[] =>
    (message.failedTranslations ?? []).map((language) => ({
      userId: author.userId,
      username: message.username,
      roomId,
      task: 'translation',
      characters: characters(message.message),
      messageId: message.id,
      language,
    }));

  return {
    async retranslate(
      roomId: string,
      message: MessageFrame,
      author: Author,
      requestId: string,
    ): Promise<ErrorFrame | undefined> {
      const chargeKey = `retranslate:${roomId}/${message.id}/${requestId}`;
      if (pending.has(chargeKey)) return undefined;
      try {
        await deps.meter.affords?.(usagesOf(roomId, message, author));
      } catch (error) {
        if (!isInsufficientCredits(error)) throw error;
        return creditsPausedNotice(error.message, error.guest);
      }
      // the same request may have come again while the balance was read
      if (pending.has(chargeKey)) return undefined;
      if (deps.enqueue(roomId, message, author, chargeKey)) pending.add(chargeKey);
      return undefined;
    },
    /** The queue's view of its jobs: a request's job that ends lets the same request be queued again. */
    tracked: {
      track: (job: Job) => deps.tracked.track(job),
      done(job: Job): void {
        deps.tracked.done(job);
        if (job.chargeKey) pending.delete(job.chargeKey);
      },
    },
  };
}

import type { MessageFrame } from '@xtalk/protocol';
import type { Logger } from '../ai/index.js';
import type { MetricsReport } from '../metrics/index.js';
import type { Notice } from './notices.js';
import type { TranslationServiceOptions } from './options.js';
import type { Meter } from './ports.js';
import { createRetranslation } from './retranslate.js';
import { createRoomQueue } from './room-queue.js';
import { createSupersession } from './supersede.js';
import type { Author, Job, PipelineEvent } from './types.js';

/*
 * How work reaches the room queue: new messages, corrected ones (the work on the old text stops,
 * supersede.ts), "Try again" requests (retranslate.ts) and jobs that come back after their author's pause.
 * The caller's path only enqueues: nothing here waits for an engine, and a failure to queue is logged, not
 * thrown.
 */

export interface MessageIntakeDeps {
  options: TranslationServiceOptions;
  logger: Logger;
  meter: Meter;
  emit: (event: Omit<PipelineEvent, 'at'>) => void;
  notice: Notice;
  /** One message's work (process-message.ts). */
  process: (job: Job) => Promise<void>;
  /** Give up on running work (close took longer than `closeTimeoutMs`). */
  abortRunning: () => void;
  /** Where a message refused for its room's backlog is counted; nowhere without. */
  metrics?: Pick<MetricsReport, 'aiRefused'>;
}

export function createMessageIntake(deps: MessageIntakeDeps) {
  const { logger } = deps;
  const supersession = createSupersession<Job>();
  const retranslation = createRetranslation({
    meter: deps.meter,
    enqueue: (roomId, message, author, chargeKey) => queue.enqueue(roomId, message, author, chargeKey),
    tracked: supersession,
  });
  const queue = createRoomQueue({
    options: deps.options,
    logger,
    emit: deps.emit,
    notice: deps.notice,
    process: deps.process,
    requeue,
    abortRunning: deps.abortRunning,
    tracked: retranslation.tracked,
    metrics: deps.metrics,
  });

  function onMessage(roomId: string, message: MessageFrame, author: Author): void {
    try {
      queue.enqueue(roomId, message, author);
    } catch (error) {
      logger.error({ err: error, roomId }, 'translation: could not queue a message');
    }
  }

  function requeue(job: Job): void {
    if (job.superseded) return; // its text was corrected: the new text has a job of its own
    const translations = { ...job.message.translations, ...job.done };
    onMessage(job.roomId, { ...job.message, translations }, job.author);
  }

  function supersede(roomId: string, id: number): void {
    try {
      supersession.supersede(roomId, id);
    } catch (error) {
      logger.error({ err: error, roomId }, 'translation: could not supersede the old work');
    }
  }

  return { queue, retranslation, onMessage, requeue, supersede };
}

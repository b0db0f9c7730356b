import type { MessageFrame } from '@xtalk/protocol';
import type { Logger } from '../ai/index.js';
import type { MetricsReport } from '../metrics/index.js';
import { createLogSampler } from '../log-sampler.js';
import type { Notice } from './notices.js';
import type { TranslationServiceOptions } from './options.js';
import type { Author, Job, PipelineEvent } from './types.js';

/*
 * The per-room fair queue: work runs under a process-wide concurrency bound, shared round-robin between
 * rooms (each room at most `maxConcurrentPerRoom` messages at once, at most `maxQueuedPerRoom` waiting),
 * so one busy or slow room cannot starve the others.
 */

interface RoomQueue {
  waiting: Job[];
  running: number;
}

export interface RoomQueueDeps {
  options: TranslationServiceOptions;
  logger: Logger;
  emit: (event: Omit<PipelineEvent, 'at'>) => void;
  notice: Notice;
  process: (job: Job) => Promise<void>;
  /** A job that was resumed while it ran: queue it again once it finishes. */
  requeue: (job: Job) => void;
  /** Give up on running work (close took longer than `closeTimeoutMs`). */
  abortRunning: () => void;
  /** A job was queued for its message / is finished (corrections stop the current one). */
  tracked?: { track(job: Job): void; done(job: Job): void };
  /** Where a message refused for its room's backlog is counted; nowhere without. */
  metrics?: Pick<MetricsReport, 'aiRefused'>;
}

export function createRoomQueue(deps: RoomQueueDeps) {
  const { options, logger, emit } = deps;
  const sampled = createLogSampler(logger);
  const rooms = new Map<string, RoomQueue>();
  /** Rooms with waiting jobs, in round-robin order. */
  const ready: string[] = [];
  let running = 0;
  let closing = false;
  const inFlight = new Set<Promise<void>>();

  function start(roomId: string, room: RoomQueue, job: Job): void {
    room.running += 1;
    running += 1;
    const work = deps
      .process(job)
      .catch((error: unknown) => {
        logger.error({ err: error, roomId, messageId: job.message.id }, 'translation: unexpected failure');
      })
      .finally(() => {
        job.running = false;
        deps.tracked?.done(job);
        if (job.resumeWhenDone && !closing) deps.requeue(job);
        room.running -= 1;
        running -= 1;
        inFlight.delete(work);
        if (room.running === 0 && room.waiting.length === 0) rooms.delete(roomId);
        if (!closing) pump();
      });
    inFlight.add(work);
  }

  function pump(): void {
    let scanned = 0;
    while (running < options.maxConcurrent && ready.length > 0 && scanned < ready.length) {
      const roomId = ready.shift() as string;
      const room = rooms.get(roomId);
      if (!room || room.waiting.length === 0) continue;
      if (room.running >= options.maxConcurrentPerRoom) {
        ready.push(roomId); // this room is at its share; give the others a turn
        scanned += 1;
        continue;
      }
      scanned = 0;
      const job = room.waiting.shift() as Job;
      if (room.waiting.length > 0) ready.push(roomId);
      start(roomId, room, job);
    }
  }

  /** Queues the message's work (paid under `chargeKey` when given); false when it was not queued. */
  function enqueue(roomId: string, message: MessageFrame, author: Author, chargeKey?: string): boolean {
    emit({ kind: 'received', roomId, messageId: message.id });
    if (closing) {
      logger.info({ roomId, messageId: message.id }, 'translation: shutting down; message not translated');
      return false;
    }
    let room = rooms.get(roomId);
    if (!room) {
      room = { waiting: [], running: 0 };
      rooms.set(roomId, room);
    }
    if (room.waiting.length >= options.maxQueuedPerRoom) {
      refuseForBacklog(deps, sampled, { roomId, messageId: message.id, queued: room.waiting.length });
      return false;
    }
    const receivedAt = performance.now();
    const job: Job = { roomId, message, author, done: {}, running: true, resumeWhenDone: false, receivedAt };
    if (chargeKey) job.chargeKey = chargeKey;
    deps.tracked?.track(job);
    room.waiting.push(job);
    if (room.waiting.length === 1) ready.push(roomId);
    pump();
    return true;
  }

  /** Drop what waits; wait for what runs up to `timeoutMs` (`closeTimeoutMs`), then abort it. */
  async function close(timeoutMs = options.closeTimeoutMs): Promise<void> {
    closing = true;
    const dropped = [...rooms.values()].reduce((sum, room) => sum + room.waiting.length, 0);
    for (const room of rooms.values()) room.waiting.length = 0;
    ready.length = 0;
    if (dropped > 0) logger.warn({ dropped }, 'translation: queued messages dropped at shutdown');
    const settled = Promise.allSettled([...inFlight]);
    if (!(await settledWithin(settled, timeoutMs))) {
      logger.warn({ running }, 'translation: shutdown timeout; aborting running work');
      deps.abortRunning();
      await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 1_000))]);
    }
  }

  return {
    enqueue,
    close,
    /** Rooms with work queued or running. */
    roomIds: () => rooms.keys(),
    isClosing: () => closing,
  };
}

/** A message refused because its room's backlog is full: counted, logged (sampled per room), told. */
function refuseForBacklog(
  deps: RoomQueueDeps,
  sampled: ReturnType<typeof createLogSampler>,
  at: { roomId: string; messageId: number; queued: number },
): void {
  deps.emit({ kind: 'dropped', roomId: at.roomId, messageId: at.messageId });
  deps.metrics?.aiRefused('backlog');
  // once per refused message while a room floods: sampled per room
  sampled.warn('backlog', at, 'translation: room backlog full', at.roomId);
  deps.notice(at.roomId, 'backlog', 'Too many messages at once: some messages were not translated.', {
    kind: 'backlog',
  });
}

/** Whether `settled` settles within `timeoutMs`. */
async function settledWithin(settled: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const inTime = await Promise.race([
    settled.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  return inTime;
}

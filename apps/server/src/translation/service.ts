import { setMaxListeners } from 'node:events';
import { buildTaskContext } from './build-task-context.js';
import { createEngineCall } from './engine-call.js';
import { createMessageIntake } from './message-intake.js';
import { createNotices, watchLoading } from './notices.js';
import { resolveOptions } from './options.js';
import { createPausedAuthors } from './paused-authors.js';
import { processMessage } from './process-message.js';
import { transcribe } from './transcribe.js';
import type { Job, PipelineEvent, TranslationService, TranslationServiceDeps } from './types.js';

export {
  DEFAULT_TRANSLATION_OPTIONS,
  type TranslationConfig,
  type TranslationServiceOptions,
} from './options.js';
export type {
  Author,
  PipelineEvent,
  TranscribeRequest,
  TranslationService,
  TranslationServiceDeps,
} from './types.js';
export { noteLanguageFor } from './write-note.js';

/*
 * Translation of room messages (server side).
 *
 * For a new message in language S and every other configured language T: translate once (never per
 * listener), stream the pieces to the room (translationChunk), then translationComplete, store it; each
 * sentence of it is synthesised once per T, as soon as it is complete, for the listeners of T (sendSpeech,
 * never the author; speech-stream.ts).
 * One hint per message (noteComplete) when the engine finds nuance worth it, sent after the translations
 * (process-message.ts and one file per task, sharing one context: build-task-context.ts).
 *
 * onMessage only enqueues: the caller's path never waits for an engine (message-intake.ts, room-queue.ts).
 * Every engine call: cache first; else Meter.charge (may refuse) then the call under a timeout, retried
 * with bounded exponential backoff when retrying can help (engine-call.ts). A task that still fails leaves
 * the message with what was done, is refunded, and tells the room once per kind of failure per window
 * (notices.ts).
 *
 * When the author cannot pay, the message stays as delivered (untranslated); the author is told once and
 * the room gets one line, until `resume(userId)` says the balance grew: then the refused work of the
 * author's recent messages runs again (what was done is not redone) and a later refusal is told again
 * (paused-authors.ts).
 */

export function createTranslationService(deps: TranslationServiceDeps): TranslationService {
  const { provider, output, meter, logger } = deps;
  const clock = deps.clock ?? { now: () => Date.now() };
  const options = resolveOptions(deps.config, deps.options);
  const shutdown = new AbortController();
  setMaxListeners(0, shutdown.signal); // one listener per call in flight

  const emit = (event: Omit<PipelineEvent, 'at'>) => {
    if (!deps.onEvent) return;
    try {
      deps.onEvent({ ...event, at: performance.now() });
    } catch {
      // instrumentation never breaks the pipeline
    }
  };
  const { send, notice } = createNotices({ output, logger, clock, options });
  const callEngine = createEngineCall({
    meter,
    logger,
    options,
    shutdown: shutdown.signal,
    metrics: deps.metrics,
  });

  const intake = createMessageIntake({
    options,
    logger,
    meter,
    emit,
    notice,
    process: (job) => processMessage(ctx, job),
    abortRunning: () => shutdown.abort(),
    metrics: deps.metrics,
  });
  const { queue, onMessage, supersede } = intake;
  const pausedAuthors = createPausedAuthors<Job>({
    users: deps.users,
    tellRoom: (roomId, notice, exceptUsername) => void send(roomId, notice, exceptUsername),
    requeue: intake.requeue,
    logger,
  });
  const ctx = buildTaskContext(deps, {
    options,
    callEngine,
    emit,
    send,
    notice,
    refused: (job, message, guest) => pausedAuthors.refused(job, message, guest),
  });
  const { clips, speech } = ctx;
  const unsubscribe = watchLoading({ provider, clock, options, send, roomIds: queue.roomIds });

  return {
    onMessage,
    onEdited(roomId, message, author) {
      supersede(roomId, message.id);
      onMessage(roomId, message, author);
    },
    supersede,
    retranslate: (roomId, message, author, requestId) =>
      intake.retranslation.retranslate(roomId, message, author, requestId),
    transcribe: (request) => transcribe(provider, callEngine, request),
    clipSentence(roomId, clip, sentence) {
      if (!queue.isClosing()) clips.clipSentence(roomId, clip, sentence);
    },
    dropClip(roomId, clipId) {
      clips.dropClip(roomId, clipId);
      speech.dropClip(roomId, clipId);
    },
    payClipAudio: (roomId, clip, seconds) =>
      meter.charge({
        userId: clip.userId,
        username: clip.username,
        roomId,
        task: 'transcription',
        audioSeconds: seconds,
      }),
    resume(userId: string) {
      try {
        pausedAuthors.resume(userId);
      } catch (error) {
        logger.error({ err: error, userId }, 'translation: could not resume');
      }
    },
    /** Running work may finish within `timeoutMs` (the options' closeTimeoutMs by default). */
    async close(timeoutMs?: number) {
      if (queue.isClosing()) return;
      unsubscribe?.();
      await queue.close(timeoutMs);
    },
  };
}

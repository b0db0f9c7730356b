import type { EngineCall } from './engine-call.js';
import { createClipTranslator, translateSentence } from './clip-translator.js';
import { createSupportCheck } from './engine-call.js';
import { LruCache } from './lru.js';
import { createFailureReporter, type Notice, type Send } from './notices.js';
import type { TranslationServiceOptions } from './options.js';
import { createSpeechSlots } from './speech-slots.js';
import { createSpeechStreams } from './speech-streams.js';
import type { TaskContext } from './task-context.js';
import type { Job, PipelineEvent, TranslationServiceDeps } from './types.js';

/** What the service has made before its tasks' context: the options, the engine call and the notices. */
export interface TaskContextParts {
  options: TranslationServiceOptions;
  callEngine: EngineCall;
  emit: (event: Omit<PipelineEvent, 'at'>) => void;
  send: Send;
  notice: Notice;
  /** The author could not pay: their work waits (paused-authors.ts). */
  refused: (job: Job, message: string, guest: boolean) => void;
}

/**
 * The context every task of a message shares: the caches, the clips' translator and the speech streams
 * that read the context back, and the one place a task's failure is reported.
 */
export function buildTaskContext(
  deps: TranslationServiceDeps,
  parts: TaskContextParts,
): TaskContext & Required<Pick<TaskContext, 'clips' | 'speech'>> {
  const { provider, logger } = deps;
  const { options, callEngine, emit, send, notice, refused } = parts;
  const supported = createSupportCheck(provider, logger);
  const speech = createSpeechStreams(() => ctx);
  const clips = createClipTranslator({
    languages: deps.config.LANGUAGES,
    send,
    onTranslated: (roomId, clip, target, text) => speech.clipSentence(roomId, clip, target, text),
    logger,
    translate: (job, onPiece) =>
      translateSentence({ provider, callEngine, supported, glossary: deps.glossary, logger }, job, onPiece),
  });

  const ctx = {
    clips,
    speech,
    listeners: deps.listeners,
    glossary: deps.glossary,
    provider,
    output: deps.output,
    store: deps.store,
    logger,
    options,
    languages: deps.config.LANGUAGES,
    textCache: new LruCache<string | null>(options.cacheEntries),
    audioCache: new LruCache<Uint8Array>(options.cacheEntries, options.audioCacheBytes, (wav) => wav.length),
    speechSlots: createSpeechSlots(options.speechPerRoom, options.speechPerNode),
    emit,
    send,
    supported,
    toldUnsupported: new Set<string>(),
    callEngine,
    reportFailure: createFailureReporter({ logger, emit, notice, refused, metrics: deps.metrics }),
    metrics: deps.metrics,
  } satisfies TaskContext;
  return ctx;
}

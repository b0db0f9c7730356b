import type { AiProvider, AiTask, Logger } from '../ai/index.js';
import type { ClipTranslator } from './clip-translator.js';
import type { EngineCall } from './engine-call.js';
import type { LruCache } from './lru.js';
import type { Send, ReportFailure } from './notices.js';
import type { TranslationServiceOptions } from './options.js';
import type { GlossaryPort, Listeners, RoomOutput, TranslationStore } from './ports.js';
import type { SpeechSlots } from './speech-slots.js';
import type { SpeechStreams } from './speech-streams.js';
import type { Job, PipelineEvent, TranslationMetrics } from './types.js';

/** What the tasks of one message share: built once by the service, passed explicitly (no globals). */
export interface TaskContext {
  provider: AiProvider;
  output: RoomOutput;
  store: TranslationStore;
  logger: Logger;
  options: TranslationServiceOptions;
  languages: readonly string[];
  textCache: LruCache<string | null>;
  audioCache: LruCache<Uint8Array>;
  /** The bound on sentences synthesised at once, per room and for this process. */
  speechSlots: SpeechSlots;
  emit: (event: Omit<PipelineEvent, 'at'>) => void;
  send: Send;
  supported: (task: AiTask, language: string) => boolean;
  callEngine: EngineCall;
  reportFailure: ReportFailure;
  /** Translations of streamed clips' sentences made before their messages. */
  clips?: ClipTranslator;
  /** Who listens in which language (speech only for those); without it, every language is spoken. */
  listeners?: Listeners;
  /** The room glossaries; read once per message. */
  glossary?: GlossaryPort;
  /** The translations being spoken, sentence by sentence. */
  speech?: SpeechStreams;
  /** Where first texts are timed (/metrics); nowhere without. */
  metrics?: Pick<TranslationMetrics, 'translationFirstText'>;
  /** Rooms already told why a task cannot run on this engine (unsupportedReason): told once each. */
  toldUnsupported?: Set<string>;
}

/**
 * Stores what a frame announces and returns the room offset the store gave it, so that the frame goes out
 * with it: stored before sent, a client that resumes gets it from the log (decision 0061). A store that fails is
 * logged and gives no offset; the frame still goes out live.
 */
export async function storedOffset(
  ctx: TaskContext,
  job: Job,
  what: { failure: string; language?: string },
  save: () => Promise<number | void>,
): Promise<number | undefined> {
  try {
    return (await save()) ?? undefined;
  } catch (error) {
    const { roomId, message } = job;
    const language = what.language === undefined ? {} : { language: what.language };
    ctx.logger.error({ err: error, roomId, messageId: message.id, ...language }, what.failure);
    return undefined;
  }
}

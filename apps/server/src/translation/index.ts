export type { RoomOutput, TranslationStore, Usage, Meter, Charge, UserOutput } from './ports.js';
export { InsufficientCreditsError, isInsufficientCredits } from './errors.js';
export {
  createTranslationService,
  noteLanguageFor,
  DEFAULT_TRANSLATION_OPTIONS,
  type TranslationService,
  type TranslationServiceDeps,
  type TranslationServiceOptions,
  type TranslationConfig,
  type TranscribeRequest,
  type PipelineEvent,
  type Author,
} from './service.js';
export { MemoryRoomOutput, MemoryTranslationStore, MemoryMeter } from './memory-ports.js';
export {
  runPipelineBench,
  type PipelineBenchOptions,
  type PipelineBenchResult,
  type Stats,
} from './bench.js';
export { createFakeProvider, FakeProvider, type FakeProviderOptions } from '../ai/fake-provider.js';
export { LruCache } from './lru.js';

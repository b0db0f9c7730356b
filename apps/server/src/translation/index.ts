export type {
  RoomOutput,
  TranslationStore,
  Usage,
  Meter,
  Charge,
  UserOutput,
  Listeners,
  Glossary,
  GlossaryPort,
} from './ports.js';
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
export { LruCache } from './lru.js';
export { createEngineCall, type EngineCall } from './engine-call.js';
export { resolveOptions } from './options.js';
export { roomGlossary, termsOf } from './glossary.js';
export { TRANSLATION_CLOSE_MS } from './options.js';

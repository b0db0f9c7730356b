import path from 'node:path';
import type { Config } from '../config.js';
import type { FakeProviderOptions } from './fake-provider.js';
import { FakeProvider } from './fake-provider.js';
import type { LocalProviderOptions } from './local-provider.js';
import { LocalProvider } from './local-provider.js';
import { OpenAiProvider } from './openai-provider.js';
import type { AiProvider, Logger } from './provider.js';
import type { LocalModels } from './local-models.js';

export * from './provider.js';
export {
  FakeProvider,
  createFakeProvider,
  fakeTranslation,
  FAKE_TRANSCRIPT_MARKER,
} from './fake-provider.js';
export type { FakeProviderOptions, FakeCall } from './fake-provider.js';
export { LocalProvider } from './local-provider.js';
export type { LocalProviderOptions } from './local-provider.js';
export { transformersLoader, DEFAULT_LOCAL_MODELS, NLLB_CODES } from './local-models.js';
export { licenceWarnings, MODEL_CARDS } from './local-catalogue.js';
export type { LocalModelLoader, LoadedModel, LoadProgress, LocalModels } from './local-models.js';
export { OpenAiProvider } from './openai-provider.js';
export * from './transcription-stream.js';
export type { OpenAiProviderOptions } from './openai-provider.js';

/**
 * The configuration the AI factory reads. The optional members are not in config.ts yet; when they are added
 * there they flow through unchanged.
 */
export type AiConfig = Pick<
  Config,
  | 'AI_PROVIDER'
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'OPENAI_TRANSLATION_MODEL'
  | 'OPENAI_TTS_MODEL'
  | 'OPENAI_TTS_VOICE'
  | 'OPENAI_TRANSCRIPTION_MODEL'
  | 'MODELS_DIR'
  | 'DATA_DIR'
> &
  Partial<
    Pick<
      Config,
      | 'LOCAL_TRANSLATION_MODEL'
      | 'LOCAL_TRANSCRIPTION_MODEL'
      | 'LOCAL_HINT_MODEL'
      | 'LOCAL_SPEECH_MODELS'
      | 'LOCAL_HINTS'
    >
  > & {
    /** Fake provider: delay before each translation chunk (ms). */
    FAKE_AI_CHUNK_DELAY_MS?: number;
    /** Fake provider: the transcript of a clip that carries no marker (a real voice, in e2e). */
    FAKE_AI_TRANSCRIPT?: string;
    /** Fake provider: delay of each streamed transcription delta (ms). */
    FAKE_AI_DELTA_MS?: number;
    /** Fake provider: the languages it has no voice for. */
    FAKE_AI_NO_VOICE?: string[];
  };

export interface CreateAiProviderOptions {
  fake?: FakeProviderOptions;
  local?: Partial<Omit<LocalProviderOptions, 'logger'>>;
}

/** The embedded engine's models the settings choose, over the defaults (`none`: no hint model). */
export function localModelsOf(config: AiConfig): Partial<LocalModels> {
  const models: Partial<LocalModels> = {};
  if (config.LOCAL_TRANSLATION_MODEL) models.translation = config.LOCAL_TRANSLATION_MODEL;
  if (config.LOCAL_TRANSCRIPTION_MODEL) models.transcription = config.LOCAL_TRANSCRIPTION_MODEL;
  if (config.LOCAL_HINT_MODEL)
    models.hint = config.LOCAL_HINT_MODEL === 'none' ? undefined : config.LOCAL_HINT_MODEL;
  if (config.LOCAL_SPEECH_MODELS?.length) {
    models.speech = Object.fromEntries(
      config.LOCAL_SPEECH_MODELS.map((entry) => entry.split('=') as [string, string]),
    );
  }
  return models;
}

/** Where local weights live: MODELS_DIR, else DATA_DIR/models. */
export function modelsDir(config: Pick<Config, 'MODELS_DIR' | 'DATA_DIR'>): string {
  return config.MODELS_DIR ?? path.join(config.DATA_DIR, 'models');
}

/**
 * AI_PROVIDER: `openai` (any OpenAI-compatible API), `local` (transformers.js), `fake` (tests only),
 * `auto` = openai when OPENAI_API_KEY is set, else local. `auto` never picks `fake`.
 */
export function createAiProvider(
  config: AiConfig,
  logger: Logger,
  options: CreateAiProviderOptions = {},
): AiProvider {
  const choice =
    config.AI_PROVIDER === 'auto' ? (config.OPENAI_API_KEY ? 'openai' : 'local') : config.AI_PROVIDER;
  switch (choice) {
    case 'openai': {
      if (!config.OPENAI_API_KEY && !config.OPENAI_BASE_URL) {
        throw new Error(
          'AI_PROVIDER=openai needs OPENAI_API_KEY (or OPENAI_BASE_URL for a keyless local server).',
        );
      }
      logger.info(
        {
          baseURL: config.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
          model: config.OPENAI_TRANSLATION_MODEL,
        },
        'AI provider: openai-compatible API',
      );
      return new OpenAiProvider({
        // Keyless OpenAI-compatible servers (Ollama, vLLM, LocalAI) still need a non-empty string here.
        apiKey: config.OPENAI_API_KEY ?? 'unused',
        baseURL: config.OPENAI_BASE_URL,
        translationModel: config.OPENAI_TRANSLATION_MODEL,
        ttsModel: config.OPENAI_TTS_MODEL,
        ttsVoice: config.OPENAI_TTS_VOICE,
        transcriptionModel: config.OPENAI_TRANSCRIPTION_MODEL,
        logger,
      });
    }
    case 'local': {
      const dir = options.local?.modelsDir ?? modelsDir(config);
      logger.info({ modelsDir: dir }, 'AI provider: local models (transformers.js)');
      return new LocalProvider({
        models: localModelsOf(config),
        hints: config.LOCAL_HINTS,
        ...options.local,
        modelsDir: dir,
        logger,
      });
    }
    case 'fake':
      logger.warn('AI provider: fake (deterministic test provider; not for real use)');
      return new FakeProvider({
        chunkDelayMs: config.FAKE_AI_CHUNK_DELAY_MS,
        transcript: config.FAKE_AI_TRANSCRIPT,
        deltaLatencyMs: config.FAKE_AI_DELTA_MS,
        voiceless: config.FAKE_AI_NO_VOICE,
        ...options.fake,
      });
  }
}
export {
  AiError,
  AiTimeoutError,
  isRetryable,
  AiUnavailableError,
  languageName,
  type AiTask,
  type GlossaryTerm,
  type ContextMessage,
  type ProviderStatus,
  type Transcription,
  type SummaryRequest,
} from './provider.js';
export { longestFirst, termsPattern } from './glossary-text.js';

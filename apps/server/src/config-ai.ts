import { z } from 'zod';
import { csv, optionalString } from './config-values.js';

/** The AI engines: an OpenAI-compatible API, the embedded models, the fake one of tests and the bench. */
export const aiSettings = {
  AI_PROVIDER: z.enum(['auto', 'openai', 'local', 'fake']).default('auto'),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalString,
  OPENAI_TRANSLATION_MODEL: z.string().default('gpt-4o-mini'),
  OPENAI_TTS_MODEL: z.string().default('gpt-4o-mini-tts'),
  OPENAI_TTS_VOICE: z.string().default('alloy'),
  OPENAI_TRANSCRIPTION_MODEL: z.string().default('gpt-4o-mini-transcribe'),
  /** Per-call timeout of an AI engine call (ms). */
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /** Messages translated at once by this process. */
  AI_CONCURRENCY: z.coerce.number().int().positive().default(8),
  /** The fake provider's delay per streamed chunk (tests and the benchmark). */
  FAKE_AI_CHUNK_DELAY_MS: z.coerce.number().int().min(0).default(0),
  /** The fake provider's transcript of a clip without a marker (e2e: what the fake microphone says). */
  FAKE_AI_TRANSCRIPT: optionalString,
  /** The fake provider's delay of each streamed transcription delta (ms). */
  FAKE_AI_DELTA_MS: z.coerce.number().int().min(0).default(0),
  /** The languages the fake provider has no voice for, comma-separated (e2e: the browser's voice). */
  FAKE_AI_NO_VOICE: csv,
  /** Streamed voice clips are transcribed while spoken ('on'), or only when they end ('off': clip mode). */
  VOICE_STREAMING: z.enum(['on', 'off']).default('on'),
  /** Where local model weights live; default DATA_DIR/models. */
  MODELS_DIR: optionalString,
  /** The embedded engine's models (docs/models.md); unset: the commercially usable defaults. */
  LOCAL_TRANSLATION_MODEL: optionalString,
  LOCAL_TRANSCRIPTION_MODEL: optionalString,
  /** The hint model; `none`: no hints. */
  LOCAL_HINT_MODEL: optionalString,
  /** Server voices by language, `en=Xenova/mms-tts-eng,fr=...`; unset: none (the browser speaks). */
  LOCAL_SPEECH_MODELS: csv.pipe(
    z.array(z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]+)*=\S+$/, 'each must be language=model')),
  ),
  /** Hints on the embedded engine: `auto` (on a machine with 4 cores and 8 GB), `on` or `off`. */
  LOCAL_HINTS: z.enum(['auto', 'on', 'off']).default('auto'),
};

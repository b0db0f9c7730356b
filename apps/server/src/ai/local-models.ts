import path from 'node:path';
import type { AiTask } from './provider.js';
import { cardOf, type LocalModels } from './local-catalogue.js';

export type { LocalModels };

/*
 * The local engines' models and how they load: which transformers.js pipelines serve which task, the
 * NLLB language codes, and the real loader (weights cached in MODELS_DIR). LocalProvider takes the loader
 * as an option, so tests exercise progress and failure without weights.
 */

export type LocalPipelineTask =
  'translation' | 'text-generation' | 'text-to-speech' | 'automatic-speech-recognition';

export interface LoadProgress {
  status: string;
  file?: string;
  /** 0..100 */
  progress?: number;
  loaded?: number;
  total?: number;
}

export interface LoadedModel {
  run(input: unknown, options?: Record<string, unknown>): Promise<unknown>;
  /** A generation streamer that calls `onText` with decoded pieces, when the model supports streaming. */
  streamer?(onText: (text: string) => void): unknown;
  dispose?(): Promise<void>;
}

export interface LoaderOptions {
  modelsDir: string;
  allowDownload: boolean;
  onProgress(progress: LoadProgress): void;
}

export type LocalModelLoader = (
  task: LocalPipelineTask,
  model: string,
  options: LoaderOptions,
) => Promise<LoadedModel>;

/**
 * Every default may be used commercially (docs/models.md, decision 0204): CAT-Translate (MIT) for
 * English<->Japanese, Whisper small (MIT), Qwen3 1.7B (Apache-2.0) for hints. No server voice: the
 * permissive voices that run in Node read no Japanese, and MMS-TTS is non-commercial, so every language is
 * spoken by the listener's browser unless an operator configures voices.
 */
export const DEFAULT_LOCAL_MODELS: LocalModels = {
  translation: 'nadare/CAT-Translate-0.8b-onnx-q4-k-quant',
  transcription: 'onnx-community/whisper-small',
  speech: {},
  hint: 'onnx-community/Qwen3-1.7B-ONNX',
};

/** NLLB-200 language codes for BCP 47 primary tags (extend as LANGUAGES grows). */
export const NLLB_CODES: Record<string, string> = {
  en: 'eng_Latn',
  ja: 'jpn_Jpan',
  ko: 'kor_Hang',
  zh: 'zho_Hans',
  'zh-TW': 'zho_Hant',
  es: 'spa_Latn',
  fr: 'fra_Latn',
  de: 'deu_Latn',
  pt: 'por_Latn',
  it: 'ita_Latn',
  ru: 'rus_Cyrl',
  vi: 'vie_Latn',
  th: 'tha_Thai',
  id: 'ind_Latn',
  ar: 'arb_Arab',
  hi: 'hin_Deva',
};

export function nllbCode(language: string): string | undefined {
  return NLLB_CODES[language] ?? NLLB_CODES[language.split('-')[0] ?? ''];
}

/** The real loader: transformers.js pipelines, weights cached in (and read from) `modelsDir`. */
export const transformersLoader =
  (dtype = 'q8'): LocalModelLoader =>
  async (task, model, options) => {
    const transformers = await import('@huggingface/transformers');
    const { env, pipeline, TextStreamer } = transformers;
    const dir = path.resolve(options.modelsDir);
    env.cacheDir = dir;
    env.localModelPath = `${dir}${path.sep}`;
    env.allowLocalModels = true;
    env.allowRemoteModels = options.allowDownload;
    // how a model in the catalogue loads: its pinned revision, folder, precision and weights file
    const card = cardOf(model);
    const loaded = await pipeline(task, model, {
      dtype: (card?.dtype ?? dtype) as 'q8',
      device: 'cpu',
      ...(card?.revision ? { revision: card.revision } : {}),
      ...(card?.subfolder !== undefined ? { subfolder: card.subfolder } : {}),
      ...(card?.externalData ? { use_external_data_format: true } : {}),
      progress_callback: (info: unknown) => options.onProgress(info as LoadProgress),
    });
    const callable = loaded as unknown as (
      input: unknown,
      options?: Record<string, unknown>,
    ) => Promise<unknown>;
    const tokenizer = (loaded as unknown as { tokenizer?: unknown }).tokenizer;
    return {
      run: (input, runOptions) => callable(input, runOptions),
      streamer: tokenizer
        ? (onText) =>
            new TextStreamer(tokenizer as never, {
              skip_prompt: true,
              skip_special_tokens: true,
              callback_function: onText,
            })
        : undefined,
      dispose: async () => {
        await (loaded as unknown as { dispose?: () => Promise<void> }).dispose?.();
      },
    };
  };

/** The error's message plus its cause's (fetch hides ENOTFOUND and the like in `cause`). */
export function describeLoadError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = cause ? (typeof cause.code === 'string' ? cause.code : cause.message) : undefined;
  return typeof detail === 'string' && detail && !error.message.includes(detail)
    ? `${error.message} (${detail})`
    : error.message;
}

/** The transformers.js pipeline that does a task with `model` (a chat model translates by prompt). */
export function pipelineTaskOf(task: AiTask, model: string): LocalPipelineTask {
  if (task === 'speech') return 'text-to-speech';
  if (task === 'transcription') return 'automatic-speech-recognition';
  if (task === 'translation' && translatorOf(model) === 'nllb') return 'translation';
  return 'text-generation';
}

/** How a translation model is driven: by the catalogue, else NLLB and M2M100 by their codes, else a prompt. */
export function translatorOf(model: string): 'nllb' | 'chat' {
  return cardOf(model)?.translator ?? (/nllb|m2m100/iu.test(model) ? 'nllb' : 'chat');
}

/**
 * The loader's progress (per file, or a total) as whole percents, each passed to `report` once and only
 * upwards: the files of one model report one after another, and their sum is what a person waits for.
 */
export function loadPercents(report: (percent: number) => void): (progress: LoadProgress) => void {
  const files = new Map<string, { loaded: number; total: number }>();
  let lastPercent = -1;
  return (progress) => {
    let percent: number | undefined;
    if (progress.status === 'progress_total' && typeof progress.progress === 'number') {
      percent = progress.progress;
    } else if (progress.status === 'progress' && progress.file && typeof progress.total === 'number') {
      files.set(progress.file, { loaded: progress.loaded ?? 0, total: progress.total });
      let loaded = 0;
      let total = 0;
      for (const file of files.values()) {
        loaded += file.loaded;
        total += file.total;
      }
      percent = total > 0 ? (100 * loaded) / total : undefined;
    }
    if (percent === undefined) return;
    const rounded = Math.max(0, Math.min(100, Math.floor(percent)));
    if (rounded <= lastPercent) return;
    lastPercent = rounded;
    report(rounded);
  };
}

import path from 'node:path';
import type {
  AiProvider,
  AiTask,
  Logger,
  NoteRequest,
  ProviderStatus,
  SpeechRequest,
  SummaryRequest,
  TranscribeOptions,
  Transcription,
  TranslateRequest,
} from './provider.js';
import { AiError, AiUnavailableError, languageFromScript } from './provider.js';
import { withProtectedTerms } from './glossary-text.js';
import { licenceWarnings } from './local-catalogue.js';
import {
  hintRefusal,
  refuseHint,
  thisMachine,
  writeHint,
  type HintSetting,
  type Machine,
} from './local-hints.js';
import { translateOn, translatesWith } from './local-translate.js';
import { createWindowStream, whisperSegments, type WindowPass } from './window-stream.js';
import type { TranscriptionStream, TranscriptionStreamOptions } from './transcription-stream.js';
import {
  PCM_SAMPLE_RATE,
  decodeOggOpus,
  encodeWav,
  isOgg,
  readWavInfo,
  wavToMonoFloat32,
} from '../audio/index.js';
import {
  DEFAULT_LOCAL_MODELS,
  describeLoadError,
  loadPercents,
  pipelineTaskOf,
  transformersLoader,
  type LoadedModel,
  type LocalModelLoader,
  type LocalModels,
} from './local-models.js';

/*
 * Local engines in-process with transformers.js (ONNX Runtime on the CPU). Weights are fetched once from the
 * Hugging Face hub into MODELS_DIR (layout MODELS_DIR/<org>/<model>/..., the same layout used to pre-place
 * them on offline machines) and loaded lazily on first use. Model choices, licences and sizes:
 * docs/models.md. The hint model loads on the first hint, on a machine large enough for it (local-hints.ts);
 * summaries are unsupported here. A configured model that may not be used commercially is named in the log
 * once, at start. Loading goes through an injectable `loader`, so tests exercise all this without weights.
 */

export interface LocalProviderOptions {
  modelsDir: string;
  logger: Logger;
  models?: Partial<LocalModels>;
  loader?: LocalModelLoader;
  /** False on machines that must never reach the hub (weights pre-placed in modelsDir). Default true. */
  allowDownload?: boolean;
  /** After a failed load, try again on use once this long has passed (ms). Default 60 000. */
  retryLoadAfterMs?: number;
  /** Weight precision asked of transformers.js; q8 keeps memory and CPU time down. Default 'q8'. */
  dtype?: string;
  now?: () => number;
  /** Streaming transcription: least time between two window passes (ms). Default 2 000. */
  streamIntervalMs?: number;
  /** Streaming transcription: the most audio one pass hears (ms). Default 20 000. */
  streamWindowMs?: number;
  /** Hints: on a machine large enough for the hint model (auto, the default), always, or never. */
  hints?: HintSetting;
  /** The machine hints are judged by; default this one. */
  machine?: Machine;
}

const TASK_LABEL: Record<AiTask, string> = {
  translation: 'translation',
  note: 'translation hints',
  speech: 'spoken translation',
  transcription: 'transcription',
  summary: 'summaries',
};

interface Slot {
  promise?: Promise<LoadedModel>;
  failedAt?: number;
  failure?: AiUnavailableError;
  /** Serialises inference on one model (a 2-core CPU gains nothing from running two at once). */
  tail: Promise<unknown>;
}

export class LocalProvider implements AiProvider {
  readonly name = 'local' as const;
  private readonly models: LocalModels;
  private readonly loader: LocalModelLoader;
  private readonly slots = new Map<string, Slot>();
  private readonly listeners = new Set<(status: ProviderStatus) => void>();
  private readonly now: () => number;

  constructor(private readonly options: LocalProviderOptions) {
    this.models = {
      ...DEFAULT_LOCAL_MODELS,
      ...options.models,
      speech: { ...DEFAULT_LOCAL_MODELS.speech, ...options.models?.speech },
    };
    this.loader = options.loader ?? transformersLoader(options.dtype);
    this.now = options.now ?? Date.now;
    for (const warning of licenceWarnings(this.models)) options.logger.warn(warning);
  }

  supports(task: AiTask, language?: string): boolean {
    switch (task) {
      case 'translation':
        return translatesWith(this.models.translation, language);
      case 'speech':
        return language === undefined || this.speechModel(language) !== undefined;
      case 'transcription':
        return true;
      case 'note':
        return this.models.hint !== undefined && this.hintRefusal() === undefined;
      case 'summary':
        return false;
    }
  }

  unsupportedReason(task: AiTask): string | undefined {
    return task === 'note' && this.models.hint !== undefined ? this.hintRefusal() : undefined;
  }

  private hintRefusal(): string | undefined {
    return hintRefusal(this.options.hints ?? 'auto', this.options.machine ?? thisMachine());
  }

  onStatus(listener: (status: ProviderStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async warmUp(): Promise<void> {
    await this.model('translation', this.models.translation).catch(() => undefined);
  }

  private emit(status: ProviderStatus): void {
    for (const listener of this.listeners) {
      try {
        listener(status);
      } catch (error) {
        this.options.logger.warn({ err: error }, 'local AI status listener failed');
      }
    }
  }

  private speechModel(language: string): string | undefined {
    return this.models.speech[language] ?? this.models.speech[language.split('-')[0] ?? ''];
  }

  /** The loaded model, loading it once; a failed load is remembered and retried after a while. */
  private model(task: AiTask, model: string): Promise<LoadedModel> {
    const key = `${task}:${model}`;
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { tail: Promise.resolve() };
      this.slots.set(key, slot);
    }
    if (slot.failure && slot.failedAt !== undefined) {
      if (this.now() - slot.failedAt < (this.options.retryLoadAfterMs ?? 60_000)) {
        return Promise.reject(slot.failure);
      }
      slot.failure = undefined;
      slot.promise = undefined;
    }
    if (!slot.promise) slot.promise = this.load(task, model, slot);
    return slot.promise;
  }

  private async load(task: AiTask, model: string, slot: Slot): Promise<LoadedModel> {
    const logger = this.options.logger;
    let lastLoggedStep = -1;
    const started = this.now();
    logger.info(
      { task, model, modelsDir: this.options.modelsDir },
      `loading local ${TASK_LABEL[task]} model ${model}`,
    );
    this.emit({ kind: 'loading', task, model, percent: 0 });
    const onProgress = loadPercents((rounded) => {
      const step = Math.floor(rounded / 10);
      if (step > lastLoggedStep) {
        lastLoggedStep = step;
        logger.info(
          { task, model, percent: rounded },
          `local ${TASK_LABEL[task]} model ${model}: ${rounded}% loaded`,
        );
      }
      this.emit({ kind: 'loading', task, model, percent: rounded });
    });
    try {
      const loaded = await this.loader(pipelineTaskOf(task, model), model, {
        modelsDir: this.options.modelsDir,
        allowDownload: this.options.allowDownload ?? true,
        onProgress,
      });
      logger.info(
        { task, model, ms: this.now() - started },
        `local ${TASK_LABEL[task]} model ${model} ready`,
      );
      this.emit({ kind: 'ready', task, model });
      return loaded;
    } catch (error) {
      const reason = describeLoadError(error);
      const failure = new AiUnavailableError(
        task,
        `${TASK_LABEL[task]} unavailable: model ${model} could not be loaded: ${reason}`,
        error,
      );
      slot.failure = failure;
      slot.failedAt = this.now();
      logger.error(
        { task, model, modelsDir: this.options.modelsDir, err: error },
        `${failure.message} (place the model files under ${path.join(this.options.modelsDir, model)} on offline machines)`,
      );
      this.emit({ kind: 'failed', task, model, message: failure.message });
      throw failure;
    }
  }

  /** Run `fn` on the loaded model, one inference at a time per model. */
  private async withModel<T>(
    task: AiTask,
    modelName: string,
    fn: (model: LoadedModel) => Promise<T>,
  ): Promise<T> {
    const model = await this.model(task, modelName);
    const slot = this.slots.get(`${task}:${modelName}`);
    if (!slot) return fn(model);
    const run = slot.tail.then(() => fn(model));
    slot.tail = run.catch(() => undefined);
    return run;
  }

  /** A translation model cannot be told what to write: the glossary's terms go through it as placeholders. */
  translate(request: TranslateRequest): AsyncIterable<string> {
    const run = this.withModel.bind(this);
    return withProtectedTerms(request, (protectedRequest) =>
      translateOn(run, this.models.translation, protectedRequest),
    );
  }

  /** A hint from the hint model, loaded on the first one; refused where the machine is too small. */
  async note(request: NoteRequest): Promise<string | null> {
    const model = this.models.hint;
    if (!model) return refuseHint('translation hints unavailable: no local hint model is set');
    const refusal = this.hintRefusal();
    return refusal ? refuseHint(refusal) : writeHint(this.withModel.bind(this), model, request);
  }

  // eslint-disable-next-line require-yield -- refuses before the first piece
  async *summarize(_request: SummaryRequest): AsyncIterable<string> {
    throw new AiUnavailableError('summary', 'summaries unavailable: no local model writes summaries');
  }

  async synthesize(request: SpeechRequest): Promise<Uint8Array> {
    const modelName = this.speechModel(request.language);
    if (!modelName) {
      throw new AiUnavailableError(
        'speech',
        `spoken translation unavailable: no local voice for '${request.language}'`,
      );
    }
    const output = (await this.withModel('speech', modelName, (model) => model.run(request.text))) as {
      audio?: Float32Array;
      sampling_rate?: number;
      data?: Float32Array;
    };
    const samples = output.audio ?? output.data;
    const rate = output.sampling_rate ?? 16_000;
    if (!samples || samples.length === 0)
      throw new AiError('local speech model produced no audio', { retryable: false });
    return encodeWav(samples, rate);
  }

  /** A sliding window (window-stream.ts): a pass hears at most 20 s after the last committed sentence. */
  streamingTranscription() {
    return 'window' as const;
  }

  startTranscription(options: TranscriptionStreamOptions): TranscriptionStream {
    return createWindowStream({
      ...options,
      intervalMs: this.options.streamIntervalMs ?? 2_000,
      maxWindowMs: this.options.streamWindowMs ?? 20_000,
      transcribe: (samples, signal) => this.transcribeWindow(samples, options.languageHint, signal),
    });
  }

  /** One window pass: Whisper with segment timestamps (the window is under 30 s: one chunk). */
  private async transcribeWindow(
    samples: Float32Array,
    languageHint: string | undefined,
    signal: AbortSignal,
  ): Promise<WindowPass> {
    const hint = languageHint?.split('-')[0];
    const output = await this.withModel('transcription', this.models.transcription, (model) => {
      signal.throwIfAborted();
      return model.run(samples, {
        ...(hint ? { language: hint } : {}),
        task: 'transcribe',
        return_timestamps: true,
      });
    });
    return whisperSegments(output);
  }

  async transcribe(audio: Uint8Array, options: TranscribeOptions = {}): Promise<Transcription> {
    // The browser records Ogg/Opus; Whisper wants 16 kHz mono PCM, decoded here in-process.
    let samples: Float32Array | undefined;
    if (isOgg(audio)) {
      try {
        samples = await decodeOggOpus(audio);
      } catch (error) {
        throw new AiError(`audio could not be decoded: ${(error as Error).message}`, {
          retryable: false,
          cause: error,
        });
      }
    } else if (readWavInfo(audio)) {
      samples = wavToMonoFloat32(audio, PCM_SAMPLE_RATE);
    }
    if (!samples) {
      throw new AiError('the local speech recognition takes Ogg/Opus or PCM16 WAV audio', {
        retryable: false,
      });
    }
    const hint = options.languageHint?.split('-')[0];
    const output = (await this.withModel('transcription', this.models.transcription, (model) =>
      model.run(samples, { ...(hint ? { language: hint } : {}), task: 'transcribe', chunk_length_s: 30 }),
    )) as { text?: string } | Array<{ text?: string }>;
    const text = (Array.isArray(output) ? output[0]?.text : output.text)?.trim() ?? '';
    return { text, language: languageFromScript(text) ?? hint ?? 'en' };
  }

  async close(): Promise<void> {
    for (const slot of this.slots.values()) {
      const model = await slot.promise?.catch(() => undefined);
      await model?.dispose?.().catch(() => undefined);
    }
    this.slots.clear();
  }
}

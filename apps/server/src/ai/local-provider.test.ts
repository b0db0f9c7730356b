import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  MemoryMeter,
  MemoryRoomOutput,
  MemoryTranslationStore,
  messageFrame,
} from '../translation/testing/index.js';
import { createTranslationService } from '../translation/index.js';
import type { LoadedModel, LocalModelLoader, LoaderOptions } from './local-models.js';
import { transformersLoader } from './local-models.js';
import { LocalProvider } from './local-provider.js';
import type { ProviderStatus } from './provider.js';
import { AiUnavailableError } from './provider.js';
import { recordingLogger } from './testing/logger.js';
import { readWavInfo } from '../audio/index.js';
import { collect } from './testing/collect.js';

/*
 * The local provider's loading path with an injected loader (this machine cannot download weights), plus the
 * real transformers.js loader against an empty models directory with downloads off.
 */

/** An operator's NLLB and MMS-TTS configuration without hints (non-commercial), which these tests drive. */
const NLLB = {
  translation: 'Xenova/nllb-200-distilled-600M',
  speech: { en: 'Xenova/mms-tts-eng' },
  hint: undefined,
};

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A translation "model" that streams through the streamer like transformers.js does. */
function fakeTranslationModel(): LoadedModel {
  let onText: ((text: string) => void) | undefined;
  return {
    streamer: (callback) => {
      onText = callback;
      return { fake: true };
    },
    run: async (input, options) => {
      const text = `<${String(options?.tgt_lang)}> ${String(input)}`;
      for (const word of text.match(/\S+\s*/g) ?? []) onText?.(word);
      return [{ translation_text: text }];
    },
  };
}

describe('local provider', () => {
  it('maps loader progress to status events and log lines, then streams the translation', async () => {
    const log = recordingLogger();
    const loader: LocalModelLoader = async (task, model, options: LoaderOptions) => {
      expect(task).toBe('translation');
      expect(options.modelsDir).toBe('/models');
      options.onProgress({ status: 'initiate', file: 'config.json' });
      options.onProgress({ status: 'progress', file: 'encoder.onnx', loaded: 25, total: 100 });
      options.onProgress({ status: 'progress', file: 'decoder.onnx', loaded: 0, total: 100 });
      options.onProgress({ status: 'progress_total', progress: 62.5, loaded: 125, total: 200 });
      options.onProgress({ status: 'progress_total', progress: 100, loaded: 200, total: 200 });
      return fakeTranslationModel();
    };
    const provider = new LocalProvider({ modelsDir: '/models', logger: log.logger, loader, models: NLLB });
    const statuses: ProviderStatus[] = [];
    provider.onStatus((status) => statuses.push(status));
    const pieces = await collect(
      provider.translate({
        text: 'hello world',
        sourceLanguage: 'en',
        targetLanguage: 'ja',
        context: [],
      }),
    );
    expect(pieces.join('')).toBe('<jpn_Jpan> hello world');
    expect(pieces.length).toBeGreaterThan(1);
    expect(statuses.map((s) => (s.kind === 'loading' ? s.percent : s.kind))).toEqual([
      0,
      25,
      62,
      100,
      'ready',
    ]); // never goes backwards as more files appear;
    expect(log.lines.some((l) => l.msg.includes('62% loaded'))).toBe(true);
    expect(log.lines.some((l) => l.msg.includes('ready'))).toBe(true);
  });

  it('a model that cannot be loaded gives a clear AiUnavailableError, is not reloaded at once, and is retried later', async () => {
    let now = 0;
    const loader = vi.fn<LocalModelLoader>(async () => {
      throw new Error('ENOTFOUND huggingface.co');
    });
    const provider = new LocalProvider({
      modelsDir: '/models',
      logger: recordingLogger().logger,
      loader,
      models: NLLB,
      retryLoadAfterMs: 60_000,
      now: () => now,
    });
    const translate = async () => {
      for await (const _ of provider.translate({
        text: 'hi',
        sourceLanguage: 'en',
        targetLanguage: 'ja',
        context: [],
      })) {
        // drain
      }
    };
    await expect(translate()).rejects.toThrow(
      'translation unavailable: model Xenova/nllb-200-distilled-600M could not be loaded: ENOTFOUND huggingface.co',
    );
    await expect(translate()).rejects.toBeInstanceOf(AiUnavailableError);
    expect(loader).toHaveBeenCalledTimes(1);
    now = 61_000;
    await expect(translate()).rejects.toBeInstanceOf(AiUnavailableError);
    expect(loader).toHaveBeenCalledTimes(2);
  });

  it('the real transformers.js loader, offline with an empty models directory, fails clearly without crashing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'xtalk-models-'));
    dirs.push(dir);
    const provider = new LocalProvider({
      modelsDir: dir,
      logger: recordingLogger().logger,
      loader: transformersLoader('q8'),
      allowDownload: false, // no network in tests
    });
    const error = await (async () => {
      for await (const _ of provider.translate({
        text: 'hi',
        sourceLanguage: 'en',
        targetLanguage: 'ja',
        context: [],
      })) {
        // drain
      }
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AiUnavailableError);
    expect((error as Error).message).toMatch(
      /^translation unavailable: model nadare\/CAT-Translate-0.8b-onnx-q4-k-quant could not be loaded: .+/,
    );
  });

  it('declares what it can do: by default English<->Japanese, hints, and no server voice', async () => {
    const provider = new LocalProvider({
      modelsDir: '/m',
      logger: recordingLogger().logger,
      loader: vi.fn(),
      machine: { cores: 4, memoryBytes: 8 * 2 ** 30 },
    });
    expect(provider.supports('note')).toBe(true);
    expect(provider.supports('summary')).toBe(false);
    expect(provider.supports('speech', 'en')).toBe(false);
    expect(provider.supports('speech', 'ja')).toBe(false);
    expect(provider.supports('translation', 'ja')).toBe(true);
    expect(provider.supports('translation', 'en-GB')).toBe(true);
    expect(provider.supports('translation', 'fr')).toBe(false);
    const operator = new LocalProvider({
      modelsDir: '/m',
      logger: recordingLogger().logger,
      loader: vi.fn(),
      models: NLLB,
    });
    expect(operator.supports('note')).toBe(false);
    expect(operator.supports('speech', 'en')).toBe(true);
    expect(operator.supports('speech', 'ja')).toBe(false);
    expect(operator.supports('translation', 'fr')).toBe(true);
    expect(operator.supports('translation', 'xx')).toBe(false);
  });

  it('synthesises speech as WAV and transcribes WAV input', async () => {
    const loader: LocalModelLoader = async (task) => ({
      run: async () =>
        task === 'text-to-speech'
          ? { audio: new Float32Array(1600).fill(0.1), sampling_rate: 16_000 }
          : { text: ' hello there ' },
    });
    const provider = new LocalProvider({
      modelsDir: '/m',
      logger: recordingLogger().logger,
      loader,
      models: NLLB,
    });
    const wav = await provider.synthesize({ text: 'hello', language: 'en' });
    expect(readWavInfo(wav)).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
    expect(await provider.transcribe(wav, { languageHint: 'en' })).toEqual({
      text: 'hello there',
      language: 'en',
    });
    await expect(provider.transcribe(new Uint8Array([1, 2, 3]))).rejects.toMatchObject({
      retryable: false,
      message: expect.stringMatching(/Ogg\/Opus or PCM16 WAV/),
    });
  });

  it('transcribes Ogg/Opus (what the browser records) by decoding it to 16 kHz mono PCM in-process', async () => {
    let input: unknown;
    let runOptions: Record<string, unknown> | undefined;
    const loader: LocalModelLoader = async () => ({
      run: async (samples, options) => {
        input = samples;
        runOptions = options;
        return { text: 'こんにちは' };
      },
    });
    const provider = new LocalProvider({ modelsDir: '/m', logger: recordingLogger().logger, loader });
    const clip = new Uint8Array(readFileSync(new URL('../voice/fixtures/hello-en.opus', import.meta.url)));
    expect(await provider.transcribe(clip, { languageHint: 'ja' })).toEqual({
      text: 'こんにちは',
      language: 'ja',
    });
    expect(input).toBeInstanceOf(Float32Array);
    // 4.17 s at 16 kHz
    expect((input as Float32Array).length).toBeGreaterThan(66_000);
    expect((input as Float32Array).length).toBeLessThan(67_500);
    expect(runOptions).toMatchObject({ language: 'ja', task: 'transcribe' });
    const corrupt = clip.slice(0, 600);
    await expect(provider.transcribe(corrupt)).rejects.toMatchObject({ retryable: false });
  });

  it('in the service: rooms waiting see throttled "translation engine loading N%" notices, then the failure notice once', async () => {
    let release: (() => void) | undefined;
    let progress: LoaderOptions['onProgress'] | undefined;
    const loader: LocalModelLoader = (_task, _model, options) =>
      new Promise((_, reject) => {
        progress = options.onProgress;
        release = () => reject(new Error('no such file: encoder_model_quantized.onnx'));
      });
    const log = recordingLogger();
    const provider = new LocalProvider({ modelsDir: '/models', logger: log.logger, loader, models: NLLB });
    const output = new MemoryRoomOutput();
    let now = 0;
    const service = createTranslationService({
      config: { LANGUAGES: ['en', 'ja'] },
      provider,
      output,
      store: new MemoryTranslationStore(),
      meter: new MemoryMeter(),
      logger: log.logger,
      clock: { now: () => now },
      options: { loadingNoticeIntervalMs: 5_000, speech: true },
    });
    service.onMessage('ROOM1', messageFrame(1, 'hello'), { userId: 'u1' });
    await vi.waitFor(() => expect(progress).toBeDefined());
    progress?.({ status: 'progress_total', progress: 10 });
    progress?.({ status: 'progress_total', progress: 20 }); // within 5 s of the last notice: not sent
    now = 6_000;
    progress?.({ status: 'progress_total', progress: 55 });
    const notices = () => output.framesOf('error').map((f) => f.message);
    expect(notices()).toEqual(['translation engine loading 0%', 'translation engine loading 55%']);
    service.onMessage('ROOM1', messageFrame(2, 'second'), { userId: 'u1' });
    release?.();
    await vi.waitFor(() => expect(notices()).toHaveLength(3));
    await service.close();
    expect(notices()[2]).toBe(
      'translation unavailable: model Xenova/nllb-200-distilled-600M could not be loaded: no such file: encoder_model_quantized.onnx',
    );
    expect(notices()).toHaveLength(3); // the second message did not repeat it
    // the same notices by kind, for clients to word in their interface language
    expect(output.framesOf('error').map((f) => f.notice)).toEqual([
      { kind: 'engine_loading', params: { task: 'translation', percent: 0 } },
      { kind: 'engine_loading', params: { task: 'translation', percent: 55 } },
      { kind: 'engine_unavailable', params: { task: 'translation' } },
    ]);
    expect(log.lines.some((l) => l.msg.includes('no engine for note'))).toBe(true); // hints skipped, said once
  });
});

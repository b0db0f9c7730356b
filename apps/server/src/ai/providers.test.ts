import { describe, expect, it } from 'vitest';
import { FAKE_TRANSCRIPT_MARKER, FakeProvider } from './fake-provider.js';
import { createAiProvider, modelsDir } from './index.js';
import type { AiConfig } from './index.js';
import { parseNote } from './prompts.js';
import { isRetryable, AiTimeoutError, AiUnavailableError } from './provider.js';
import { recordingLogger } from './testing/logger.js';
import { encodeWav, isWav, readWavInfo, sineWav, wavToMonoFloat32 } from '../audio/index.js';
import { collect } from './testing/collect.js';

const baseConfig: AiConfig = {
  AI_PROVIDER: 'auto',
  OPENAI_API_KEY: undefined,
  OPENAI_BASE_URL: undefined,
  OPENAI_TRANSLATION_MODEL: 'gpt-4o-mini',
  OPENAI_TTS_MODEL: 'gpt-4o-mini-tts',
  OPENAI_TTS_VOICE: 'alloy',
  OPENAI_TRANSCRIPTION_MODEL: 'gpt-4o-mini-transcribe',
  MODELS_DIR: undefined,
  DATA_DIR: './data',
};

describe('createAiProvider', () => {
  const { logger } = recordingLogger();
  it('auto picks openai with a key, local without, never fake', () => {
    expect(createAiProvider({ ...baseConfig, OPENAI_API_KEY: 'sk-x' }, logger).name).toBe('openai');
    expect(createAiProvider(baseConfig, logger).name).toBe('local');
    expect(createAiProvider({ ...baseConfig, AI_PROVIDER: 'fake' }, logger).name).toBe('fake');
    expect(
      createAiProvider(
        { ...baseConfig, AI_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' },
        logger,
      ).name,
    ).toBe('openai');
    expect(() => createAiProvider({ ...baseConfig, AI_PROVIDER: 'openai' }, logger)).toThrow(
      /OPENAI_API_KEY/,
    );
  });
  it('keeps local weights in MODELS_DIR, else DATA_DIR/models', () => {
    expect(modelsDir(baseConfig)).toBe('data/models');
    expect(modelsDir({ ...baseConfig, MODELS_DIR: '/srv/models' })).toBe('/srv/models');
  });
});

describe('fake provider', () => {
  it('streams [lang] text word by word with the configured delay', async () => {
    const provider = new FakeProvider({ chunkDelayMs: 20 });
    const started = performance.now();
    const pieces = await collect(
      provider.translate({
        text: 'a b c',
        sourceLanguage: 'en',
        targetLanguage: 'ja',
        context: [],
      }),
    );
    expect(pieces).toEqual(['[ja] ', 'a ', 'b ', 'c']);
    expect(performance.now() - started).toBeGreaterThanOrEqual(70);
  });
  it('splits into exactly `chunks` pieces for the bench', async () => {
    const provider = new FakeProvider({ chunks: 3 });
    const pieces = await collect(
      provider.translate({
        text: 'hello world',
        sourceLanguage: 'en',
        targetLanguage: 'ja',
        context: [],
      }),
    );
    expect(pieces).toHaveLength(3);
    expect(pieces.join('')).toBe('[ja] hello world');
  });
  it('writes a note only for marked messages, speaks a valid WAV, decodes a transcript marker', async () => {
    const provider = new FakeProvider();
    const request = { sourceLanguage: 'en', noteLanguage: 'ja', context: [] };
    expect(await provider.note({ ...request, text: 'plain words' })).toBeNull();
    expect(await provider.note({ ...request, text: 'that is an idiom' })).toContain('[ja]');
    expect(await provider.note({ ...request, text: 'x !hint' })).not.toBeNull();
    const wav = await provider.synthesize({ text: 'hello', language: 'ja' });
    expect(readWavInfo(wav)).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
    const audio = new TextEncoder().encode(`OggS....${FAKE_TRANSCRIPT_MARKER}ja:こんにちは`);
    expect(await provider.transcribe(audio)).toEqual({ language: 'ja', text: 'こんにちは' });
    expect(await provider.transcribe(new Uint8Array(10), { languageHint: 'en' })).toEqual({
      language: 'en',
      text: 'hello from the fake transcriber',
    });
  });
});

describe('wav', () => {
  it('encodes a header the client accepts and reads it back', () => {
    const wav = sineWav(0.5);
    expect(isWav(wav)).toBe(true);
    const info = readWavInfo(wav);
    expect(info).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16, dataLength: 16_000 });
    expect(info?.durationSeconds).toBeCloseTo(0.5);
    expect(isWav(new Uint8Array([1, 2, 3]))).toBe(false);
  });
  it('resamples to 16 kHz mono for recognition', () => {
    const wav = encodeWav(new Float32Array(4_800).fill(0.5), 48_000);
    const samples = wavToMonoFloat32(wav, 16_000);
    expect(samples?.length).toBe(1_600);
    expect(samples?.[10]).toBeCloseTo(0.5, 3);
  });
});

describe('errors and notes', () => {
  it('classifies retryable errors', () => {
    expect(isRetryable(new AiTimeoutError('translation', 10))).toBe(true);
    expect(isRetryable(new AiUnavailableError('translation', 'x'))).toBe(false);
    expect(isRetryable({ status: 401 })).toBe(false);
    expect(isRetryable({ status: 429 })).toBe(true);
    expect(isRetryable({ status: 503 })).toBe(true);
    expect(isRetryable(new TypeError('fetch failed'))).toBe(true);
  });
  it('reads the NONE sentinel as no note and strips quotes', () => {
    expect(parseNote('NONE')).toBeNull();
    expect(parseNote(' none. ')).toBeNull();
    expect(parseNote('"NONE"')).toBeNull();
    expect(parseNote('')).toBeNull();
    expect(parseNote('"Polite form: keigo."')).toBe('Polite form: keigo.');
    expect(parseNote('x'.repeat(1000))?.length).toBeLessThanOrEqual(400);
  });
});

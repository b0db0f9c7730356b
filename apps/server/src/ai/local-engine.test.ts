import { describe, expect, it, vi } from 'vitest';
import { MODEL_CARDS, cardOf, configuredModels, licenceWarnings } from './local-catalogue.js';
import { HINT_MACHINE } from './local-hints.js';
import { DEFAULT_LOCAL_MODELS, type LoadedModel, type LocalModelLoader } from './local-models.js';
import { LocalProvider } from './local-provider.js';
import { MAX_NOTE_LENGTH } from './prompts.js';
import { AiUnavailableError } from './provider.js';
import { createAiProvider } from './index.js';
import { loadConfig } from '../config.js';
import { collect } from './testing/collect.js';
import { recordingLogger } from './testing/logger.js';

/*
 * The embedded engine's defaults and what they bring, with fake loaders (no weights here): every default
 * may be used commercially and a configured model that may not is named once at start; CAT-Translate is
 * driven by a prompt; the hint model loads on the first hint, never before, and only on a machine large
 * enough for it.
 */

const BIG = HINT_MACHINE;
const SMALL = { cores: 2, memoryBytes: 4 * 2 ** 30 };

/** A chat model answering `answer(messages)`, streaming it word by word. */
function chatModel(answer: (messages: Array<{ role: string; content: string }>) => string) {
  const inputs: unknown[] = [];
  let onText: ((text: string) => void) | undefined;
  const model: LoadedModel = {
    streamer: (callback) => {
      onText = callback;
      return {};
    },
    run: async (input, options) => {
      inputs.push({ input, options });
      const messages = input as Array<{ role: string; content: string }>;
      const text = answer(messages);
      if (options?.streamer) for (const word of text.match(/\S+\s*/gu) ?? []) onText?.(word);
      return [{ generated_text: [...messages, { role: 'assistant', content: text }] }];
    },
  };
  return { model, inputs };
}

describe('the embedded engine', () => {
  it('defaults only to models whose licence allows commercial self-hosting', () => {
    for (const id of configuredModels(DEFAULT_LOCAL_MODELS)) {
      expect(cardOf(id), id).toBeDefined();
      expect(cardOf(id)?.commercial, id).toBe(true);
    }
    expect(licenceWarnings(DEFAULT_LOCAL_MODELS)).toEqual([]);
    expect(MODEL_CARDS.filter((card) => !card.commercial).map((card) => card.licence)).toContain(
      'CC-BY-NC-4.0',
    );
  });

  it('names a configured model that may not be used commercially, once, at start', () => {
    const log = recordingLogger();
    const provider = new LocalProvider({
      modelsDir: '/m',
      logger: log.logger,
      loader: vi.fn(),
      models: {
        translation: 'Xenova/nllb-200-distilled-600M',
        speech: { en: 'Xenova/mms-tts-eng' },
        hint: 'someone/unknown-model',
      },
      machine: BIG,
    });
    const warnings = log.lines.filter((line) => line.level === 'warn').map((line) => line.msg);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^local model Xenova\/nllb-200-distilled-600M is licensed CC-BY-NC-4.0, which does not allow commercial use/,
      ),
      expect.stringMatching(/^local model Xenova\/mms-tts-eng is licensed CC-BY-NC-4.0/),
      expect.stringMatching(/^local model someone\/unknown-model: its licence is not known to XTalk/),
    ]);
    expect(provider.supports('note')).toBe(true);
    const quiet = recordingLogger();
    new LocalProvider({ modelsDir: '/m', logger: quiet.logger, loader: vi.fn() });
    expect(quiet.lines.filter((line) => line.level === 'warn')).toEqual([]);
  });

  it('translates with CAT-Translate by instruction, loaded as a text-generation model', async () => {
    const cat = chatModel(() => 'おはようございます。');
    const loader = vi.fn<LocalModelLoader>(async () => cat.model);
    const provider = new LocalProvider({ modelsDir: '/m', logger: recordingLogger().logger, loader });
    const pieces = await collect(
      provider.translate({ text: 'Good morning.', sourceLanguage: 'en', targetLanguage: 'ja', context: [] }),
    );
    expect(pieces.join('')).toBe('おはようございます。');
    expect(loader).toHaveBeenCalledWith(
      'text-generation',
      'nadare/CAT-Translate-0.8b-onnx-q4-k-quant',
      expect.objectContaining({ modelsDir: '/m' }),
    );
    expect(cat.inputs[0]).toMatchObject({
      input: [
        { role: 'user', content: 'Translate the following English text into Japanese.\n\nGood morning.' },
      ],
      options: { do_sample: false },
    });
    await expect(
      collect(
        provider.translate({ text: 'Bonjour', sourceLanguage: 'fr', targetLanguage: 'ja', context: [] }),
      ),
    ).rejects.toThrow("translation unavailable: the local model does not know 'fr'");
  });

  it('loads the hint model on the first hint, never before, and holds it to the hint rules', async () => {
    const answers = ['<think>\n</think>\n\nNONE', `「${'あ'.repeat(MAX_NOTE_LENGTH + 50)}」`];
    const hint = chatModel(() => answers.shift() ?? '');
    const cat = chatModel(() => 'こんにちは');
    const loader = vi.fn<LocalModelLoader>(async (_task, model) =>
      model === DEFAULT_LOCAL_MODELS.hint ? hint.model : cat.model,
    );
    const provider = new LocalProvider({
      modelsDir: '/m',
      logger: recordingLogger().logger,
      loader,
      machine: BIG,
    });
    await provider.warmUp();
    await collect(
      provider.translate({ text: 'Hello', sourceLanguage: 'en', targetLanguage: 'ja', context: [] }),
    );
    expect(loader.mock.calls.map((call) => call[1])).toEqual([DEFAULT_LOCAL_MODELS.translation]);

    const request = { text: 'Break a leg!', sourceLanguage: 'en', noteLanguage: 'ja', context: [] };
    expect(await provider.note(request)).toBeNull();
    expect(loader.mock.calls.map((call) => call.slice(0, 2))).toEqual([
      ['text-generation', DEFAULT_LOCAL_MODELS.translation],
      ['text-generation', DEFAULT_LOCAL_MODELS.hint],
    ]);
    const [first] = hint.inputs as Array<{ input: Array<{ role: string; content: string }> }>;
    expect(first?.input[0]).toMatchObject({
      role: 'system',
      content: expect.stringContaining('exactly NONE'),
    });
    expect(first?.input.at(-1)?.content).toMatch(/Break a leg!\n\n\/no_think$/u);
    const long = await provider.note(request);
    expect(long).toHaveLength(MAX_NOTE_LENGTH);
    expect(long?.endsWith('…')).toBe(true);
    expect(loader).toHaveBeenCalledTimes(2); // loaded once
  });

  it('on a machine too small for the hint model, refuses hints with a reason and never loads it', async () => {
    const loader = vi.fn<LocalModelLoader>(async () => chatModel(() => 'a hint').model);
    const request = { text: 'Break a leg!', sourceLanguage: 'en', noteLanguage: 'ja', context: [] };
    const small = new LocalProvider({
      modelsDir: '/m',
      logger: recordingLogger().logger,
      loader,
      machine: SMALL,
    });
    const refusal = await small.note(request).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AiUnavailableError);
    expect((refusal as AiUnavailableError).task).toBe('note');
    expect((refusal as Error).message).toBe(
      'translation hints need a larger engine: the local hint model needs 4 CPU cores and 8 GB of memory, and this machine has 2 and 4.0 GB',
    );
    expect(loader).not.toHaveBeenCalled();
    expect(small.supports('note')).toBe(false);
    expect(small.unsupportedReason('note')).toBe((refusal as Error).message);
    const forced = new LocalProvider({
      modelsDir: '/m',
      logger: recordingLogger().logger,
      loader,
      machine: SMALL,
      hints: 'on',
    });
    expect(await forced.note(request)).toBe('a hint');
    const off = new LocalProvider({
      modelsDir: '/m',
      logger: recordingLogger().logger,
      loader,
      machine: BIG,
      hints: 'off',
    });
    await expect(off.note(request)).rejects.toThrow('translation hints are off on this server');
  });

  it('takes its models from the settings, over the defaults, and names what may not be sold with', () => {
    const log = recordingLogger();
    const config = loadConfig({
      NODE_ENV: 'test',
      AI_PROVIDER: 'local',
      LOCAL_TRANSLATION_MODEL: 'Xenova/nllb-200-distilled-600M',
      LOCAL_SPEECH_MODELS: 'en=Xenova/mms-tts-eng, fr=Xenova/mms-tts-fra',
      LOCAL_HINT_MODEL: 'none',
    });
    const provider = createAiProvider(config, log.logger, { local: { loader: vi.fn() } });
    expect(provider.supports('translation', 'fr')).toBe(true);
    expect(provider.supports('speech', 'fr')).toBe(true);
    expect(provider.supports('speech', 'ja')).toBe(false);
    expect(provider.supports('note')).toBe(false);
    expect(log.lines.filter((line) => line.level === 'warn')).toHaveLength(3);
    expect(() => loadConfig({ NODE_ENV: 'test', LOCAL_SPEECH_MODELS: 'Xenova/mms-tts-eng' })).toThrow(
      /language=model/,
    );
    expect(() => loadConfig({ NODE_ENV: 'test', LOCAL_HINTS: 'sometimes' })).toThrow();
  });
});

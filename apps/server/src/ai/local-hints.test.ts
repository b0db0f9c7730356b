import { expect, it, vi } from 'vitest';
import { createTranslationService } from '../translation/index.js';
import {
  MemoryMeter,
  MemoryRoomOutput,
  MemoryTranslationStore,
  messageFrame,
} from '../translation/testing/index.js';
import type { LoadedModel, LocalModelLoader } from './local-models.js';
import { LocalProvider } from './local-provider.js';
import { recordingLogger } from './testing/logger.js';

/*
 * In the translation service, on a machine too small for the hint model: messages are translated, the
 * room is told once that hints need a larger engine, and the hint model is never loaded nor charged for.
 */

it('tells the room once that hints need a larger engine, and translates all the same', async () => {
  const translator: LoadedModel = {
    run: async (input) => {
      const messages = input as Array<{ role: string; content: string }>;
      return [{ generated_text: [...messages, { role: 'assistant', content: 'やあ' }] }];
    },
  };
  const loader = vi.fn<LocalModelLoader>(async () => translator);
  const log = recordingLogger();
  const provider = new LocalProvider({
    modelsDir: '/m',
    logger: log.logger,
    loader,
    machine: { cores: 2, memoryBytes: 4 * 2 ** 30 },
  });
  const output = new MemoryRoomOutput();
  const meter = new MemoryMeter();
  const service = createTranslationService({
    config: { LANGUAGES: ['en', 'ja'] },
    provider,
    output,
    store: new MemoryTranslationStore(),
    meter,
    logger: log.logger,
  });
  service.onMessage('ROOM1', messageFrame(1, 'hello'), { userId: 'u1' });
  service.onMessage('ROOM1', messageFrame(2, 'hello again'), { userId: 'u1' });
  await vi.waitFor(() => expect(output.framesOf('translationComplete')).toHaveLength(2));
  await service.close();
  expect(output.framesOf('translationComplete').map((frame) => frame.fullText)).toEqual(['やあ', 'やあ']);
  const hints = output.framesOf('error').filter((frame) => frame.notice?.params?.task === 'note');
  expect(hints).toEqual([
    expect.objectContaining({
      code: 'notice',
      message: expect.stringMatching(/^translation hints need a larger engine/),
      notice: { kind: 'engine_unavailable', params: { task: 'note' } },
    }),
  ]);
  expect(output.framesOf('noteComplete')).toEqual([]);
  // hints that are never written are never charged
  expect(meter.charges.map((usage) => usage.task)).toEqual(['translation', 'translation']);
  expect(loader.mock.calls.map((call) => call[1])).toEqual(['nadare/CAT-Translate-0.8b-onnx-q4-k-quant']);
});

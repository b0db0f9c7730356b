import { APIConnectionError, InternalServerError } from 'openai';
import { describe, expect, it, vi } from 'vitest';
import { AiError, AiTimeoutError } from '../ai/index.js';
import { FakeProvider } from '../ai/index.js';
import { recordingLogger } from '../ai/testing/logger.js';
import { engineCause } from './engine-cause.js';
import { createTranslationService, type PipelineEvent } from './service.js';
import { messageFrame, MemoryMeter, MemoryRoomOutput, MemoryTranslationStore } from './testing/index.js';

/*
 * An engine that fails a message fails all of its tasks at once: the room is told once, by the translation,
 * with the cause the person can act on (unreachable, too slow, the status it answered), and the hint that
 * failed with it is not told again.
 */

describe('engine failure notices', () => {
  it('tells the translation’s failure once and not the hint’s that failed with it', async () => {
    const output = new MemoryRoomOutput();
    const events: PipelineEvent[] = [];
    const service = createTranslationService({
      config: { LANGUAGES: ['en', 'ja'] },
      provider: new FakeProvider(),
      output,
      store: new MemoryTranslationStore(),
      meter: new MemoryMeter(),
      logger: recordingLogger().logger,
      options: { retryBaseDelayMs: 1 },
      onEvent: (event) => events.push(event),
    });
    service.onMessage('R', messageFrame(1, 'hello !failall'), { userId: 'u' });
    // the hint's failure is reported after the translations, told or not
    await vi.waitFor(() => expect(events.some((e) => e.kind === 'failed' && e.task === 'note')).toBe(true));
    await service.close();
    const notices = output.framesOf('error', 'R').filter((frame) => frame.code === 'notice');
    expect(notices.map((frame) => frame.notice)).toEqual([
      { kind: 'engine_failed', params: { task: 'translation', language: 'ja' } },
    ]);
  });

  it('names the cause of an engine failure through the error’s causes', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    expect(
      engineCause(new APIConnectionError({ cause: new TypeError('fetch failed', { cause: refused }) })),
    ).toEqual({
      cause: 'unreachable',
    });
    expect(engineCause(new TypeError('fetch failed', { cause: refused }))).toEqual({ cause: 'unreachable' });
    const status = new InternalServerError(500, { message: 'engine down' }, 'engine down', new Headers());
    expect(engineCause(status)).toEqual({ cause: 'status', status: 500 });
    expect(engineCause(new AiTimeoutError('translation', 1000))).toEqual({ cause: 'timeout' });
    expect(
      engineCause(new AiError('the AI engine returned an empty translation', { retryable: true })),
    ).toBeUndefined();
    expect(engineCause('a string')).toBeUndefined();
  });
});

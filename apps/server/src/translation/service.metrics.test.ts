import { describe, expect, it, vi } from 'vitest';
import { FakeProvider } from '../ai/index.js';
import { recordingLogger } from '../ai/testing/logger.js';
import type { AiRefusalReason } from '../metrics/index.js';
import { InsufficientCreditsError } from './errors.js';
import { MemoryMeter, MemoryRoomOutput, MemoryTranslationStore, messageFrame } from './testing/index.js';
import type { TranslationServiceOptions } from './options.js';
import { createTranslationService } from './service.js';

/*
 * What the translation service reports for the service levels and the refusals panel: each language's
 * first text once, timed from the message; work refused for credits or a full backlog counted, its log
 * lines sampled (a room of guests out of credits refuses every message).
 */

function setup(options: Partial<TranslationServiceOptions> = {}, provider = new FakeProvider()) {
  const output = new MemoryRoomOutput();
  const store = new MemoryTranslationStore();
  const meter = new MemoryMeter();
  const firstTexts: number[] = [];
  const refused: AiRefusalReason[] = [];
  const log = recordingLogger();
  const service = createTranslationService({
    config: { LANGUAGES: ['en', 'ja', 'fr'] },
    provider,
    output,
    users: output,
    store,
    meter,
    logger: log.logger,
    options: { retryBaseDelayMs: 1, retryMaxDelayMs: 2, attempts: 2, ...options },
    metrics: {
      aiCall: () => undefined,
      translationFirstText: (seconds) => firstTexts.push(seconds),
      aiRefused: (reason) => refused.push(reason),
    },
  });
  return { output, store, meter, service, firstTexts, refused, lines: log.lines };
}

describe('translation metrics', () => {
  it("times each language's first text once, however many chunks follow", async () => {
    const { output, store, service, firstTexts } = setup();
    service.onMessage('R', messageFrame(1, 'five words in this message'), { userId: 'u' });
    await vi.waitFor(() => expect(store.translations).toHaveLength(2));
    await service.close();
    const chunks = output.frames.filter((f) => f.frame.type === 'translationChunk');
    expect(chunks.length).toBeGreaterThan(2);
    // ja and fr: the message's own language is not translated
    expect(firstTexts).toHaveLength(2);
    for (const seconds of firstTexts) expect(seconds).toBeGreaterThanOrEqual(0);
    expect(firstTexts.every((seconds) => seconds < 2)).toBe(true);
  });

  it('counts every task refused for credits and writes a few of its lines per room, not one each', async () => {
    const { meter, service, refused, lines } = setup();
    meter.refuseWith = () => new InsufficientCreditsError('You have run out of credits.');
    for (let id = 1; id <= 12; id += 1)
      service.onMessage('R', messageFrame(id, `message ${id}`), { userId: 'broke' });
    await vi.waitFor(() => expect(refused.length).toBeGreaterThanOrEqual(12));
    await service.close();
    expect(new Set(refused)).toEqual(new Set(['no_credits']));
    const written = lines.filter((line) => line.msg === 'translation: no credits');
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThanOrEqual(3);
  });

  it('counts a message refused for its room backlog', async () => {
    const slow = new FakeProvider({ chunkDelayMs: 200 });
    const { service, refused } = setup(
      { maxConcurrent: 1, maxConcurrentPerRoom: 1, maxQueuedPerRoom: 1 },
      slow,
    );
    for (let id = 1; id <= 4; id += 1)
      service.onMessage('R', messageFrame(id, `message ${id}`), { userId: 'u' });
    // one running, one waiting: the other two are refused at once
    expect(refused).toEqual(['backlog', 'backlog']);
    await service.close(0);
  });
});

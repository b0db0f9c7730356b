import { describe, expect, it, vi } from 'vitest';
import { FakeProvider } from '../ai/index.js';
import { recordingLogger } from '../ai/testing/logger.js';
import {
  messageFrame as message,
  MemoryMeter,
  MemoryRoomOutput,
  MemoryTranslationStore,
  runPipelineBench,
} from './testing/index.js';
import type { Listeners } from './ports.js';
import { createTranslationService, noteLanguageFor } from './service.js';

function setup(languages = ['en', 'ja'], options = {}, listeners?: Listeners) {
  const provider = new FakeProvider();
  const output = new MemoryRoomOutput();
  const store = new MemoryTranslationStore();
  const meter = new MemoryMeter();
  const log = recordingLogger();
  const service = createTranslationService({
    config: { LANGUAGES: languages },
    provider,
    output,
    store,
    meter,
    logger: log.logger,
    options: { retryBaseDelayMs: 5, ...options },
    listeners,
  });
  return { provider, output, store, meter, log, service };
}

describe('translation service (fake provider)', () => {
  it('translates into every other configured language once, whatever the number of listeners', async () => {
    const { provider, store, service } = setup(['en', 'ja', 'ko']);
    service.onMessage('R', message(1, 'こんにちは', 'ja'), { userId: 'u' });
    await vi.waitFor(() => expect(store.translations).toHaveLength(2));
    await service.close();
    expect(store.translations.map((t) => t.language).sort()).toEqual(['en', 'ko']);
    expect(provider.calls.filter((c) => c.task === 'translation')).toHaveLength(2);
    expect(
      provider.calls
        .filter((c) => c.task === 'speech')
        .map((c) => c.language)
        .sort(),
    ).toEqual(['en', 'ko']);
    expect(provider.calls.filter((c) => c.task === 'note')).toHaveLength(1);
  });

  it('speaks only the languages someone in the room listens in, and charges only for those (decision 0137)', async () => {
    const asked: string[] = [];
    const listeners: Listeners = {
      listens: async (roomId, language) => {
        asked.push(`${roomId}:${language}`);
        return language === 'ko';
      },
    };
    const { provider, store, meter, service } = setup(['en', 'ja', 'ko'], {}, listeners);
    service.onMessage('R', message(1, 'good morning'), { userId: 'u' });
    await vi.waitFor(() => expect(store.translations).toHaveLength(2));
    await service.close(); // waits for the message's work, speech included
    // both translations are made and stored (history, transcript): only the speech is skipped
    expect(store.translations.map((t) => t.language).sort()).toEqual(['ja', 'ko']);
    expect(provider.calls.filter((c) => c.task === 'speech').map((c) => c.language)).toEqual(['ko']);
    expect(meter.charges.filter((c) => c.task === 'speech').map((c) => c.language)).toEqual(['ko']);
    // and, once Korean is spoken, whether a listener who takes it as one WAV is there
    expect(asked.sort()).toEqual(['R:ja', 'R:ko', 'R:wav:ko']);
  });

  it('speaks when who listens cannot be read', async () => {
    const listeners: Listeners = {
      listens: async () => {
        throw new Error('presence store away');
      },
    };
    const { provider, store, service, log } = setup(['en', 'ja'], {}, listeners);
    service.onMessage('R', message(1, 'good morning'), { userId: 'u' });
    await vi.waitFor(() => expect(store.translations).toHaveLength(1));
    await service.close();
    expect(provider.calls.filter((c) => c.task === 'speech').map((c) => c.language)).toEqual(['ja']);
    expect(log.lines.some((l) => l.msg.includes('listeners unknown'))).toBe(true);
  });

  it('skips languages already translated and a note already present', async () => {
    const { provider, service } = setup();
    service.onMessage('R', message(1, 'hi', 'en', { translations: { ja: 'やあ' }, note: 'n' }), {
      userId: 'u',
    });
    await service.close();
    expect(provider.calls).toEqual([]);
  });

  it('never throws from onMessage, even when the ports fail', async () => {
    const { service, output, store, log } = setup();
    output.broadcast = async () => {
      throw new Error('bus down');
    };
    store.recentMessages = async () => {
      throw new Error('db down');
    };
    expect(() => service.onMessage('R', message(1, 'hello'), { userId: 'u' })).not.toThrow();
    await vi.waitFor(() => expect(store.translations).toHaveLength(1));
    await service.close();
    expect(log.lines.some((l) => l.msg.includes('broadcast failed'))).toBe(true);
    expect(log.lines.some((l) => l.msg.includes('no context'))).toBe(true);
  });

  it('bounds each room backlog and says so once', async () => {
    const { service, output } = setup(['en', 'ja'], {
      maxQueuedPerRoom: 2,
      maxConcurrentPerRoom: 1,
      closeTimeoutMs: 50,
    });
    for (let i = 1; i <= 6; i += 1) service.onMessage('R', message(i, `m${i} !slow`), { userId: 'u' });
    expect(output.framesOf('error')).toEqual([
      {
        type: 'error',
        code: 'notice',
        message: 'Too many messages at once: some messages were not translated.',
        notice: { kind: 'backlog' },
      },
    ]);
    await service.close();
  });

  it('logs a flooded backlog a few times, not once per refused message', async () => {
    const { service, log } = setup(['en', 'ja'], {
      maxQueuedPerRoom: 2,
      maxConcurrentPerRoom: 1,
      closeTimeoutMs: 50,
    });
    for (let i = 1; i <= 500; i += 1) service.onMessage('R', message(i, `m${i} !slow`), { userId: 'u' });
    const full = log.lines.filter((line) => line.msg === 'translation: room backlog full');
    expect(full.length).toBeGreaterThan(0);
    expect(full.length).toBeLessThanOrEqual(3);
    await service.close();
  });

  it('close() aborts work that outlives the timeout and stops taking messages', async () => {
    const { service, store, log } = setup(['en', 'ja'], { closeTimeoutMs: 50 });
    service.onMessage('R', message(1, 'forever !slow'), { userId: 'u' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    await service.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    service.onMessage('R', message(2, 'late'), { userId: 'u' });
    expect(store.translations).toEqual([]);
    expect(log.lines.some((l) => l.msg.includes('shutdown timeout'))).toBe(true);
  });

  it('meters transcription by audio seconds before calling the engine', async () => {
    const { service, meter } = setup();
    const result = await service.transcribe({
      roomId: 'R',
      author: { userId: 'u', username: 'alice' },
      audio: new Uint8Array(8),
      languageHint: 'ja',
      audioSeconds: 3.5,
    });
    expect(result.language).toBe('ja');
    expect(meter.charges).toEqual([
      { userId: 'u', username: 'alice', roomId: 'R', task: 'transcription', audioSeconds: 3.5 },
    ]);
    await service.close();
  });

  it('writes the one note in the other language, or English among several', () => {
    expect(noteLanguageFor('en', ['en', 'ja'])).toBe('ja');
    expect(noteLanguageFor('ja', ['en', 'ja'])).toBe('en');
    expect(noteLanguageFor('ja', ['en', 'ja', 'ko'])).toBe('en');
    expect(noteLanguageFor('en', ['en', 'ja', 'ko'])).toBe('ja');
    expect(noteLanguageFor('en', ['en'])).toBeUndefined();
  });

  it('the bench helper reports the pipeline overhead beyond the provider', async () => {
    const result = await runPipelineBench({ messages: 20, rooms: 4, chunkDelayMs: 2, chunks: 5 });
    expect(result.overheadMs.count).toBe(20);
    expect(result.providerMs.mean).toBeGreaterThanOrEqual(9);
    expect(result.overheadMs.p50).toBeLessThan(50);
  });
});

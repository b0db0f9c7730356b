import { describe, expect, it, vi } from 'vitest';
import { FakeProvider, type FakeProviderOptions } from '../ai/index.js';
import { recordingLogger } from '../ai/testing/logger.js';
import { inspectOggOpus, readWavInfo } from '../audio/index.js';
import { InsufficientCreditsError } from './errors.js';
import type { Listeners } from './ports.js';
import { createTranslationService, type PipelineEvent } from './service.js';
import {
  messageFrame as message,
  MemoryMeter,
  MemoryRoomOutput,
  MemoryTranslationStore,
} from './testing/index.js';

/*
 * Spoken translations sentence by sentence (fake engine): each sentence a `speech` with its own Ogg/Opus,
 * in order, `last` on the final one, made while the translation still streams; one WAV per message for
 * older listeners; nothing for a language nobody listens in; a correction stops the old text's speech.
 */

/** The first sentence loads the WebAssembly encoder: slow on a busy machine. */
const soon = { timeout: 10_000 };
const THREE = 'The train is late today. We will wait here. Tell the others please.';

function setup(providerOptions: FakeProviderOptions = {}, listeners?: Listeners) {
  const provider = new FakeProvider(providerOptions);
  const output = new MemoryRoomOutput();
  const store = new MemoryTranslationStore();
  const meter = new MemoryMeter();
  const events: PipelineEvent[] = [];
  const service = createTranslationService({
    config: { LANGUAGES: ['en', 'ja'] },
    provider,
    output,
    store,
    meter,
    logger: recordingLogger().logger,
    options: { retryBaseDelayMs: 5 },
    onEvent: (event) => events.push(event),
    ...(listeners ? { listeners } : {}),
  });
  return { provider, output, store, meter, events, service };
}

describe('speech sentence by sentence', () => {
  it('sends each sentence in order as a valid Ogg/Opus stream, the last marked, to the listeners only', async () => {
    const { provider, output, service } = setup();
    service.onMessage('R', message(1, THREE), { userId: 'u' });
    await vi.waitFor(() => expect(output.speech.some((s) => s.last)).toBe(true), soon);
    await service.close();

    expect(output.speech.map(({ id, language, seq, last }) => ({ id, language, seq, last }))).toEqual([
      { id: 1, language: 'ja', seq: 0, last: false },
      { id: 1, language: 'ja', seq: 1, last: false },
      { id: 1, language: 'ja', seq: 2, last: true },
    ]);
    for (const sentence of output.speech) {
      expect(sentence.exceptUsername).toBe('alice');
      expect(String.fromCharCode(...sentence.ogg.subarray(0, 4))).toBe('OggS');
      const check = inspectOggOpus(sentence.ogg);
      expect(check).toMatchObject({ ok: true, channels: 1 });
      // OpusHead, OpusTags and at least one page of audio
      if (check.ok) expect(check.pages).toBeGreaterThanOrEqual(3);
      if (check.ok) expect(check.durationSeconds).toBeGreaterThan(0.1);
    }
    // synthesised once per sentence, the sentences of the translation
    expect(provider.calls.filter((c) => c.task === 'speech').map((c) => c.text)).toEqual([
      '[ja] The train is late today.',
      'We will wait here.',
      'Tell the others please.',
    ]);
    // older listeners: the same speech as one WAV, as long as the sentences together
    expect(output.audio).toHaveLength(1);
    const wav = readWavInfo(output.audio[0]!.wav)!;
    const opusSeconds = output.speech.reduce((sum, s) => {
      const check = inspectOggOpus(s.ogg);
      return sum + (check.ok ? check.durationSeconds : 0);
    }, 0);
    expect(wav.durationSeconds).toBeCloseTo(opusSeconds, 1);
  });

  it('starts speaking the first sentence while the translation still streams', async () => {
    const { output, events, service } = setup({ chunkDelayMs: 40 });
    service.onMessage('R', message(2, THREE), { userId: 'u' });
    await vi.waitFor(() => expect(output.speech.some((s) => s.last)).toBe(true), soon);
    await service.close();
    const firstAudio = events.find((e) => e.kind === 'audio')!.at;
    const complete = events.find((e) => e.kind === 'complete' && e.language === 'ja')!.at;
    expect(firstAudio).toBeLessThan(complete);
  });

  it('makes no speech for a language nobody listens in', async () => {
    const listeners: Listeners = { listens: async () => false };
    const { provider, output, meter, store, service } = setup({}, listeners);
    service.onMessage('R', message(3, THREE), { userId: 'u' });
    await vi.waitFor(() => expect(store.translations).toHaveLength(1), soon);
    await service.close();
    expect(output.speech).toEqual([]);
    expect(output.audio).toEqual([]);
    expect(provider.calls.filter((c) => c.task === 'speech')).toEqual([]);
    expect(meter.charges.filter((c) => c.task === 'speech')).toEqual([]);
  });

  it('a correction mid-speech stops the old text; the new text is spoken from seq 0', async () => {
    const { output, service } = setup({ chunkDelayMs: 60 });
    const original = message(4, THREE);
    service.onMessage('R', original, { userId: 'u' });
    await vi.waitFor(() => expect(output.speech).toHaveLength(1), soon);
    const edited = { ...original, message: 'Sorry. Wrong room.' };
    service.onEdited('R', edited, { userId: 'u' });
    await vi.waitFor(() => expect(output.speech.some((s) => s.last)).toBe(true), soon);
    await service.close();
    expect(output.speech.map(({ seq, last }) => ({ seq, last }))).toEqual([
      { seq: 0, last: false }, // the old text's first sentence, before the correction
      { seq: 0, last: false },
      { seq: 1, last: true },
    ]);
    expect(output.audio).toHaveLength(1); // the corrected text only
  });

  it('a sentence the author cannot pay for is not spoken, with one notice', async () => {
    const { output, meter, service } = setup();
    meter.refuseWith = (usage) =>
      usage.task === 'speech' && usage.characters === 'We will wait here.'.length
        ? new InsufficientCreditsError('Not enough credits.')
        : undefined;
    service.onMessage('R', message(5, THREE), { userId: 'u' });
    await vi.waitFor(() => expect(output.framesOf('error').length).toBeGreaterThan(0), soon);
    await service.close();
    expect(output.speech.map((s) => s.seq)).toEqual([0]);
    expect(output.framesOf('error')).toHaveLength(1);
  });
});

import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openAiProviderFor } from '../ai/testing/openai-provider.js';
import {
  defaultTranslation,
  startFakeOpenAiServer,
  type FakeOpenAiServer,
} from '../ai/testing/fake-openai-server.js';
import { recordingLogger } from '../ai/testing/logger.js';
import { inspectOggOpus, readWavInfo } from '../audio/index.js';
import type { Listeners } from './ports.js';
import { createTranslationService, type TranslationService } from './service.js';
import {
  messageFrame as message,
  MemoryMeter,
  MemoryRoomOutput,
  MemoryTranslationStore,
} from './testing/index.js';

/*
 * Spoken translations sentence by sentence with the openai engine, against the fake OpenAI-compatible
 * server over real HTTP: its speech endpoint answers raw PCM, which the server encodes as Ogg/Opus per
 * sentence and joins into one WAV for older listeners.
 */

/** The first sentence loads the WebAssembly encoder: slow on a busy machine. */
const soon = { timeout: 10_000 };
const THREE = 'The train is late today. We will wait here. Tell the others please.';

let server: FakeOpenAiServer;
let output: MemoryRoomOutput;
let store: MemoryTranslationStore;
let service: TranslationService | undefined;

function start(listeners?: Listeners): TranslationService {
  service = createTranslationService({
    config: { LANGUAGES: ['en', 'ja'] },
    provider: openAiProviderFor(server),
    output,
    store,
    meter: new MemoryMeter(),
    logger: recordingLogger().logger,
    options: { retryBaseDelayMs: 5, notes: false },
    ...(listeners ? { listeners } : {}),
  });
  return service;
}

/** Stream every translation word by word, `delayMs` apart. */
function slowTranslations(delayMs: number): void {
  server.onChat = (body) => ({ kind: 'stream', pieces: defaultTranslation(body.messages), delayMs });
}

const speechRequests = () => server.requests.filter((r) => r.path === '/v1/audio/speech');

beforeAll(() => import('openai'));
beforeEach(async () => {
  server = await startFakeOpenAiServer();
  output = new MemoryRoomOutput();
  store = new MemoryTranslationStore();
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  await server.close();
});

describe('speech sentence by sentence with the openai engine', () => {
  it('sends the sentences in order, each a valid Ogg/Opus stream, and one WAV for older listeners', async () => {
    const svc = start();
    svc.onMessage('R', message(1, THREE), { userId: 'u' });
    await vi.waitFor(() => expect(output.audio).toHaveLength(1), soon);

    expect(output.speech.map(({ id, language, seq, last }) => ({ id, language, seq, last }))).toEqual([
      { id: 1, language: 'ja', seq: 0, last: false },
      { id: 1, language: 'ja', seq: 1, last: false },
      { id: 1, language: 'ja', seq: 2, last: true },
    ]);
    let opusSeconds = 0;
    for (const sentence of output.speech) {
      expect(sentence.exceptUsername).toBe('alice');
      const check = inspectOggOpus(sentence.ogg);
      expect(check).toMatchObject({ ok: true, channels: 1 });
      // OpusHead, OpusTags and at least one page of audio
      if (check.ok) expect(check.pages).toBeGreaterThanOrEqual(3);
      if (check.ok) opusSeconds += check.durationSeconds;
    }
    expect(speechRequests().map((r) => [r.body.input, r.body.response_format])).toEqual([
      ['ja: The train is late today.', 'pcm'],
      ['We will wait here.', 'pcm'],
      ['Tell the others please.', 'pcm'],
    ]);
    // a protocol-5 listener's WAV: the engine's 24 kHz PCM, as long as the sentences together
    const wav = readWavInfo(output.audio[0]!.wav)!;
    expect(wav).toMatchObject({ sampleRate: 24_000, channels: 1 });
    expect(wav.durationSeconds).toBeCloseTo(0.75, 2);
    expect(opusSeconds).toBeCloseTo(0.75, 1);
  });

  it('a correction mid-speech supersedes: the old text stops, the new one is spoken from seq 0', async () => {
    slowTranslations(60);
    const svc = start();
    const original = message(2, THREE);
    svc.onMessage('R', original, { userId: 'u' });
    await vi.waitFor(() => expect(output.speech).toHaveLength(1), soon);
    svc.onEdited('R', { ...original, message: 'Sorry. Wrong room.' }, { userId: 'u' });
    await vi.waitFor(() => expect(output.audio).toHaveLength(1), soon);

    expect(output.speech.map(({ seq, last }) => ({ seq, last }))).toEqual([
      { seq: 0, last: false }, // the old text's first sentence, before the correction
      { seq: 0, last: false },
      { seq: 1, last: true },
    ]);
    const inputs = speechRequests().map((r) => r.body.input);
    expect(inputs.slice(-2)).toEqual(['ja: Sorry.', 'Wrong room.']);
    expect(inputs).not.toContain('Tell the others please.');
  });

  it('makes no speech for a language nobody listens in', async () => {
    const svc = start({ listens: async () => false });
    svc.onMessage('R', message(3, THREE), { userId: 'u' });
    await vi.waitFor(() => expect(store.translations).toHaveLength(1), soon);
    await svc.close();
    expect(output.speech).toEqual([]);
    expect(output.audio).toEqual([]);
    expect(speechRequests()).toEqual([]);
  });
});

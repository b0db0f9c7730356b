import type { MessageFrame } from '@xtalk/protocol';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openAiProviderFor } from '../ai/testing/openai-provider.js';
import type { FakeOpenAiServer } from '../ai/testing/fake-openai-server.js';
import {
  defaultTranslation,
  isNoteRequest,
  startFakeOpenAiServer,
} from '../ai/testing/fake-openai-server.js';
import { recordingLogger } from '../ai/testing/logger.js';
import { readWavInfo } from '../audio/index.js';
import { InsufficientCreditsError } from './errors.js';
import { MemoryMeter, MemoryRoomOutput, MemoryTranslationStore } from './testing/index.js';
import type { TranslationService, TranslationServiceOptions } from './service.js';
import { createTranslationService } from './service.js';

/*
 * The translation service end to end against a fake OpenAI-compatible server over real HTTP/SSE, through
 * the real `openai` SDK. Ports are in-memory.
 */

let server: FakeOpenAiServer;
let output: MemoryRoomOutput;
let store: MemoryTranslationStore;
let meter: MemoryMeter;
let log: ReturnType<typeof recordingLogger>;
let service: TranslationService | undefined;
let nextId = 1_700_000_000_000;

function message(text: string, overrides: Partial<MessageFrame> = {}): MessageFrame {
  nextId += 1000;
  return {
    type: 'message',
    id: nextId,
    username: 'alice',
    displayUsername: 'BraveOtter',
    message: text,
    language: 'en',
    timestamp: nextId,
    translations: {},
    isTutorial: false,
    ...overrides,
  };
}

function start(
  options: Partial<TranslationServiceOptions> = {},
  languages = ['en', 'ja'],
): TranslationService {
  const provider = openAiProviderFor(server);
  service = createTranslationService({
    config: { LANGUAGES: languages },
    provider,
    output,
    store,
    meter,
    logger: log.logger,
    options: { retryBaseDelayMs: 10, retryMaxDelayMs: 40, callTimeoutMs: 2_000, ...options },
  });
  return service;
}

/** Post a message the way the rooms service will: store it, then hand it over. */
function post(svc: TranslationService, roomId: string, m: MessageFrame, userId = 'user-alice'): void {
  store.add(roomId, m);
  svc.onMessage(roomId, m, { userId });
}

const notices = () => output.framesOf('error').filter((f) => f.code === 'notice');
const translationRequests = () =>
  server.chatRequests().filter((r) => !isNoteRequest(r.body.messages as never));
const noteRequests = () => server.chatRequests().filter((r) => isNoteRequest(r.body.messages as never));

// A server constructs its provider, which starts loading the SDK (decision 0116), long before the first
// message; here the first test posts at once, so the SDK is loaded first, outside what the tests time.
beforeAll(() => import('openai'));

beforeEach(async () => {
  server = await startFakeOpenAiServer();
  output = new MemoryRoomOutput();
  store = new MemoryTranslationStore();
  meter = new MemoryMeter();
  log = recordingLogger();
});

afterEach(async () => {
  await service?.close();
  service = undefined;
  await server.close();
});

describe('translation service with the openai provider', () => {
  it('streams the translation in order to the room, completes, stores it and sends the request with context', async () => {
    const svc = start();
    store.add(
      'ROOM1',
      message('My sister Hana is visiting.', { username: 'bob', displayUsername: 'CalmPanda' }),
    );
    const m = message('She loves sushi');
    post(svc, 'ROOM1', m);

    await vi.waitFor(() => expect(store.translations).toHaveLength(1));
    const chunks = output.framesOf('translationChunk', 'ROOM1').filter((f) => f.originalTimestamp === m.id);
    expect(chunks.map((c) => c.chunk)).toEqual(['ja: ', 'She ', 'loves ', 'sushi']);
    // each says where it starts: the length of the ones before it (0136)
    expect(chunks.map((c) => c.at)).toEqual([0, 4, 8, 14]);
    expect(chunks.every((c) => c.targetLanguage === 'ja')).toBe(true);
    const complete = output.framesOf('translationComplete', 'ROOM1');
    expect(complete).toEqual([
      {
        type: 'translationComplete',
        originalTimestamp: m.id,
        targetLanguage: 'ja',
        fullText: 'ja: She loves sushi',
      },
    ]);
    // chunks strictly before the completion
    const types = output.frames.map((f) => f.frame.type).filter((t) => t.startsWith('translation'));
    expect(types.lastIndexOf('translationChunk')).toBeLessThan(types.indexOf('translationComplete'));
    expect(store.translations).toEqual([
      { roomId: 'ROOM1', messageId: m.id, language: 'ja', text: 'ja: She loves sushi' },
    ]);

    const [request] = translationRequests();
    expect(request?.body.model).toBe('test-translate-model');
    expect(request?.body.stream).toBe(true);
    expect(request?.headers.authorization).toBe('Bearer test-key');
    const messages = request?.body.messages as Array<{ role: string; content: string }>;
    const all = messages.map((x) => x.content).join('\n');
    expect(all).toContain('Japanese (ja)');
    expect(all).toContain('CalmPanda [en]: My sister Hana is visiting.');
    expect(messages.at(-1)?.content.endsWith('She loves sushi')).toBe(true);
  });

  it('sends and stores a hint when the model finds nuance, in the listener language, after the translation', async () => {
    const svc = start({ speech: false });
    const m = message('Break a leg tonight, that is an idiom');
    post(svc, 'ROOM1', m);
    await vi.waitFor(() => expect(store.notes).toHaveLength(1));
    expect(store.notes[0]).toEqual({
      roomId: 'ROOM1',
      messageId: m.id,
      note: 'This uses an idiom: it means "good luck".',
    });
    const noteFrames = output.framesOf('noteComplete', 'ROOM1');
    expect(noteFrames).toEqual([
      { type: 'noteComplete', originalTimestamp: m.id, note: store.notes[0]?.note },
    ]);
    const order = output.frames.map((f) => f.frame.type);
    expect(order.indexOf('noteComplete')).toBeGreaterThan(order.indexOf('translationComplete'));
    const [noteRequest] = noteRequests();
    expect(noteRequest?.body.stream).toBe(true);
    const system = (noteRequest?.body.messages as Array<{ content: string }>)[0]?.content ?? '';
    expect(system).toContain('written in Japanese (ja)');
  });

  it('sends no hint when the model answers NONE', async () => {
    const svc = start({ speech: false });
    post(svc, 'ROOM1', message('See you at noon'));
    await vi.waitFor(() => expect(store.translations).toHaveLength(1));
    await vi.waitFor(() => expect(noteRequests()).toHaveLength(1));
    await svc.close();
    expect(store.notes).toEqual([]);
    expect(output.framesOf('noteComplete')).toEqual([]);
  });

  it('synthesises the translation once per target language from PCM and sends it to that language, never the author', async () => {
    const svc = start({ notes: false }, ['en', 'ja', 'fr']);
    const m = message('Good morning everyone');
    post(svc, 'ROOM1', m);
    await vi.waitFor(() => expect(output.audio).toHaveLength(2));
    const byLanguage = Object.fromEntries(output.audio.map((a) => [a.language, a]));
    expect(Object.keys(byLanguage).sort()).toEqual(['fr', 'ja']);
    for (const sent of output.audio) {
      expect(sent.roomId).toBe('ROOM1');
      expect(sent.exceptUsername).toBe('alice');
      expect(readWavInfo(sent.wav)?.sampleRate).toBe(24_000);
    }
    const speech = server.requests.filter((r) => r.path === '/v1/audio/speech');
    expect(speech).toHaveLength(2);
    expect(speech.map((r) => r.body.input).sort()).toEqual([
      'fr: Good morning everyone',
      'ja: Good morning everyone',
    ]);
    for (const r of speech) {
      expect(r.body).toMatchObject({ model: 'test-tts-model', voice: 'test-voice', response_format: 'pcm' });
    }
  });

  it('retries a failed provider call with backoff, then succeeds; the room sees no notice', async () => {
    let calls = 0;
    server.onChat = (body) => {
      if (isNoteRequest(body.messages)) return undefined;
      calls += 1;
      return calls === 1 ? { kind: 'status', status: 503 } : undefined;
    };
    const svc = start({ speech: false, notes: false });
    const m = message('Hello again');
    post(svc, 'ROOM1', m);
    await vi.waitFor(() => expect(store.translations).toHaveLength(1));
    expect(translationRequests()).toHaveLength(2);
    expect(store.translations[0]?.text).toBe('ja: Hello again');
    expect(notices()).toEqual([]);
    expect(meter.charges.filter((c) => c.task === 'translation')).toHaveLength(1);
  });

  it('a stream that drops mid-way is retried without re-streaming, and the completion replaces the pieces', async () => {
    let calls = 0;
    server.onChat = (body) => {
      if (isNoteRequest(body.messages)) return undefined;
      calls += 1;
      return calls === 1
        ? { kind: 'stream', pieces: defaultTranslation(body.messages), failAfter: 2 }
        : undefined;
    };
    const svc = start({ speech: false, notes: false });
    const m = message('one two three four');
    post(svc, 'ROOM1', m);
    await vi.waitFor(() => expect(store.translations).toHaveLength(1));
    expect(output.framesOf('translationChunk').map((c) => c.chunk)).toEqual(['ja: ', 'one ']);
    expect(output.framesOf('translationComplete')[0]?.fullText).toBe('ja: one two three four');
  });

  it('a permanent failure gives the room ONE notice; the message keeps the translations that worked', async () => {
    server.onChat = (body) => {
      if (isNoteRequest(body.messages)) return undefined;
      const system = body.messages[0]?.content ?? '';
      return system.includes('(fr)') ? { kind: 'status', status: 500, message: 'overloaded' } : undefined;
    };
    const svc = start({ speech: false, notes: false, attempts: 3 }, ['en', 'ja', 'fr']);
    const first = message('First message');
    const second = message('Second message');
    post(svc, 'ROOM1', first);
    post(svc, 'ROOM1', second);
    await vi.waitFor(() => expect(store.translations).toHaveLength(2));
    await svc.close();
    expect(store.translations.map((t) => t.language)).toEqual(['ja', 'ja']);
    const frTranslationRequests = translationRequests().filter((r) =>
      JSON.stringify(r.body.messages).includes('(fr)'),
    );
    expect(frTranslationRequests).toHaveLength(6); // 3 attempts per message, bounded
    expect(notices()).toHaveLength(1);
    expect(notices()[0]?.message).toMatch(/Translation into French failed: the AI engine answered HTTP 500/);
    expect(notices()[0]?.notice).toEqual({
      kind: 'engine_failed',
      // the notice names its cause, so the web app says why (the engine's HTTP status here)
      params: { task: 'translation', language: 'fr', cause: 'status', status: 500 },
    });
    // one notice for the room, but each failed translation is ended, so no listener keeps its chunks
    // (the two messages are translated at the same time: their failures may come in either order)
    const failed = output.framesOf('translationFailed');
    expect(failed.sort((a, b) => a.originalTimestamp - b.originalTimestamp)).toEqual([
      { type: 'translationFailed', originalTimestamp: first.id, targetLanguage: 'fr' },
      { type: 'translationFailed', originalTimestamp: second.id, targetLanguage: 'fr' },
    ]);
    expect(log.lines.some((l) => l.level === 'error' && l.msg.includes('translation failed'))).toBe(true);
  });

  it('times out a provider that never answers, retries within bounds, then tells the room', async () => {
    server.onChat = (body) => (isNoteRequest(body.messages) ? undefined : { kind: 'hang' });
    const svc = start({ speech: false, notes: false, callTimeoutMs: 150, attempts: 2 });
    const started = Date.now();
    post(svc, 'ROOM1', message('Are you there?'));
    await vi.waitFor(() => expect(notices()).toHaveLength(1), { timeout: 3_000 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(translationRequests()).toHaveLength(2);
    expect(notices()[0]?.message).toContain('did not answer in time');
    expect(store.translations).toEqual([]);
  });

  it('serves a second identical message (same languages, same context) from the cache, with no provider call', async () => {
    const svc = start({ notes: true });
    post(svc, 'ROOM1', message('Nice to meet you'));
    await vi.waitFor(() => expect(output.audio).toHaveLength(1));
    await vi.waitFor(() => expect(noteRequests()).toHaveLength(1));
    const requestsBefore = server.requests.length;
    const chargesBefore = meter.charges.length;

    const again = message('Nice to meet you');
    post(svc, 'ROOM2', again); // another room with the same (empty) context
    await vi.waitFor(() => expect(output.audio).toHaveLength(2));
    await vi.waitFor(() => expect(store.translations).toHaveLength(2));
    expect(server.requests.length).toBe(requestsBefore);
    expect(meter.charges.length).toBe(chargesBefore);
    expect(output.framesOf('translationComplete', 'ROOM2')[0]?.fullText).toBe('ja: Nice to meet you');
    expect(
      output
        .framesOf('translationChunk', 'ROOM2')
        .map((c) => c.chunk)
        .join(''),
    ).toBe('ja: Nice to meet you');
  });

  it('a different context is a cache miss', async () => {
    const svc = start({ notes: false, speech: false });
    post(svc, 'ROOM1', message('Nice to meet you'));
    await vi.waitFor(() => expect(store.translations).toHaveLength(1));
    store.add('ROOM2', message('I am Ken', { username: 'ken' }));
    post(svc, 'ROOM2', message('Nice to meet you'));
    await vi.waitFor(() => expect(store.translations).toHaveLength(2));
    expect(translationRequests()).toHaveLength(2);
  });

  it('meters every provider call before it happens, keyed by the author, with the right numbers', async () => {
    const svc = start();
    const m = message('Thanks a lot');
    post(svc, 'ROOM1', m, 'uid-42');
    await vi.waitFor(() => expect(output.audio).toHaveLength(1));
    await vi.waitFor(() => expect(meter.charges).toHaveLength(3));
    const base = { userId: 'uid-42', username: 'alice', roomId: 'ROOM1', messageId: m.id, language: 'ja' };
    expect(meter.charges).toEqual(
      expect.arrayContaining([
        { ...base, task: 'translation', characters: 'Thanks a lot'.length },
        { ...base, task: 'note', characters: 'Thanks a lot'.length },
        { ...base, task: 'speech', characters: 'ja: Thanks a lot'.length },
      ]),
    );
    expect(meter.refunds).toEqual([]);
    // one charge per provider call
    expect(server.requests).toHaveLength(3);
  });

  it('a refused charge skips the call and tells the room once', async () => {
    meter.refuseWith = (usage) => (usage.userId === 'broke' ? new InsufficientCreditsError() : undefined);
    const svc = start();
    post(
      svc,
      'ROOM1',
      message('Can anyone hear me?', { username: 'bob', displayUsername: 'QuietFox' }),
      'broke',
    );
    post(svc, 'ROOM1', message('Hello?', { username: 'bob', displayUsername: 'QuietFox' }), 'broke');
    await vi.waitFor(() => expect(notices()).toHaveLength(1));
    await svc.close();
    expect(server.requests).toEqual([]);
    expect(store.translations).toEqual([]);
    expect(notices()).toHaveLength(1);
    expect(notices()[0]?.message).toContain('QuietFox has run out of credits');
  });

  it('onMessage returns at once and a slow room does not hold up other rooms', async () => {
    server.onChat = (body) => {
      if (isNoteRequest(body.messages)) return undefined;
      const slow = JSON.stringify(body.messages).includes('slow room');
      return { kind: 'stream', pieces: defaultTranslation(body.messages), delayMs: slow ? 400 : 0 };
    };
    const svc = start({ speech: false, notes: false, maxConcurrent: 3, maxConcurrentPerRoom: 2 });
    const t0 = performance.now();
    for (let i = 0; i < 6; i += 1) post(svc, 'SLOW', message(`slow room ${i}`));
    expect(performance.now() - t0).toBeLessThan(50); // nothing awaited on the caller's path
    post(svc, 'FAST', message('fast room'));
    await vi.waitFor(() => expect(store.translations.some((t) => t.roomId === 'FAST')).toBe(true));
    // the fast room finished while the slow room still had most of its work pending
    expect(store.translations.filter((t) => t.roomId === 'SLOW').length).toBeLessThan(6);
  });

  it('close() waits for work in flight', async () => {
    server.onChat = (body) => ({ kind: 'stream', pieces: defaultTranslation(body.messages), delayMs: 50 });
    const svc = start({ speech: false, notes: false });
    post(svc, 'ROOM1', message('finish me please'));
    await vi.waitFor(() => expect(translationRequests()).toHaveLength(1));
    await svc.close();
    expect(store.translations).toHaveLength(1);
    service = undefined;
  });
});

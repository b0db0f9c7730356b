import type { MessageFrame } from '@xtalk/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openAiProviderFor } from '../ai/testing/openai-provider.js';
import {
  isNoteRequest,
  startFakeOpenAiServer,
  type FakeOpenAiServer,
} from '../ai/testing/fake-openai-server.js';
import { recordingLogger } from '../ai/testing/logger.js';
import { MemoryMeter, MemoryRoomOutput, MemoryTranslationStore } from './testing/index.js';
import { createTranslationService, type TranslationService } from './service.js';

/*
 * Corrections in the translation service against a fake OpenAI-compatible server over real HTTP/SSE:
 * the old work is stopped and never lands, the new text is translated, hinted and spoken, and charged.
 */

let server: FakeOpenAiServer;
let output: MemoryRoomOutput;
let store: MemoryTranslationStore;
let meter: MemoryMeter;
let service: TranslationService | undefined;
const ROOM = 'ROOM1';
const author = { userId: 'user-alice' };

function start(): TranslationService {
  const provider = openAiProviderFor(server);
  service = createTranslationService({
    config: { LANGUAGES: ['en', 'ja'] },
    provider,
    output,
    store,
    meter,
    logger: recordingLogger().logger,
    options: { retryBaseDelayMs: 10, retryMaxDelayMs: 40, callTimeoutMs: 5_000 },
  });
  return service;
}

function message(text: string): MessageFrame {
  const id = 1_700_000_000_000;
  return {
    type: 'message',
    id,
    username: 'alice',
    message: text,
    language: 'en',
    timestamp: id,
    translations: {},
    isTutorial: false,
  };
}

beforeEach(async () => {
  server = await startFakeOpenAiServer();
  output = new MemoryRoomOutput();
  store = new MemoryTranslationStore();
  meter = new MemoryMeter();
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  await server.close();
});

describe('corrections with the openai provider', () => {
  it('stops the old translation mid-stream; the new text is translated, hinted, spoken and charged', async () => {
    // the old text streams slowly (the correction arrives in the middle); everything else as usual
    server.onChat = (body) => {
      const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
      if (isNoteRequest(body.messages) || !user.includes('stale')) return undefined;
      return { kind: 'stream', pieces: Array.from({ length: 40 }, (_, i) => `stale${i} `), delayMs: 25 };
    };
    const svc = start();
    const original = message('a stale sentence to translate');
    store.add(ROOM, original);
    svc.onMessage(ROOM, original, author);
    await vi.waitFor(() => expect(output.framesOf('translationChunk').length).toBeGreaterThan(0));

    const edited = store.edit(ROOM, original.id, 'a fresh idiom, break a leg');
    const editedAt = output.frames.length;
    svc.onEdited(ROOM, edited, author);

    await vi.waitFor(() => expect(store.notes).toHaveLength(1), { timeout: 5_000 });
    await vi.waitFor(() => expect(output.audio).toHaveLength(1), { timeout: 5_000 });
    const complete = output.framesOf('translationComplete');
    expect(complete.map((f) => f.fullText)).toEqual(['ja: a fresh idiom, break a leg']);
    expect(store.translations.map((t) => t.text)).toEqual(['ja: a fresh idiom, break a leg']);
    expect(store.notes[0]?.note).toMatch(/idiom/);
    // nothing of the old work after the correction: no chunk, no completion, no audio
    const after = output.frames.slice(editedAt).map((entry) => JSON.stringify(entry.frame));
    expect(after.join('\n')).not.toMatch(/stale/);
    const spoken = server.requests.filter((r) => r.path === '/v1/audio/speech');
    expect(spoken.map((r) => r.body.input)).toEqual(['ja: a fresh idiom, break a leg']);
    // the old call was charged, then refunded (stopped work is not paid for); the new work is charged
    const translations = meter.charges.filter((c) => c.task === 'translation');
    expect(translations.map((c) => c.characters)).toEqual([
      'a stale sentence to translate'.length,
      'a fresh idiom, break a leg'.length,
    ]);
    expect(meter.refunds.map((c) => c.characters)).toEqual(['a stale sentence to translate'.length]);
    expect(meter.charges.filter((c) => c.task === 'speech')).toHaveLength(1);
  });

  it('a correction of a message still waiting in the queue replaces it there', async () => {
    const svc = start();
    const original = message('first words');
    store.add(ROOM, original);
    svc.onMessage(ROOM, original, author);
    const edited = store.edit(ROOM, original.id, 'second words');
    svc.onEdited(ROOM, edited, author); // in the same tick: the first job has not reached an engine yet
    await vi.waitFor(() => expect(output.audio).toHaveLength(1), { timeout: 5_000 });
    expect(output.framesOf('translationComplete').map((f) => f.fullText)).toEqual(['ja: second words']);
    expect(JSON.stringify(output.frames)).not.toMatch(/first words/);
    expect(meter.charges.filter((c) => c.task === 'translation')).toHaveLength(1);
  });
});

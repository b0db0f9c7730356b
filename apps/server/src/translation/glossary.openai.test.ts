import type { MessageFrame } from '@xtalk/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openAiProviderFor } from '../ai/testing/openai-provider.js';
import {
  isNoteRequest,
  startFakeOpenAiServer,
  type FakeOpenAiServer,
} from '../ai/testing/fake-openai-server.js';
import { recordingLogger } from '../ai/testing/logger.js';
import { termsFor, type RoomGlossary } from '../glossary/index.js';
import { MemoryMeter, MemoryRoomOutput, MemoryTranslationStore } from './testing/index.js';
import { createTranslationService, type TranslationService } from './service.js';

/*
 * The room glossary in the translation request, against a fake OpenAI-compatible server over real
 * HTTP/SSE: a message that holds a term (or a member's name) carries exactly those with their renderings,
 * one that holds none carries no glossary at all.
 */

let server: FakeOpenAiServer;
let output: MemoryRoomOutput;
let store: MemoryTranslationStore;
let service: TranslationService | undefined;
const ROOM = 'ROOM1';
let glossary: RoomGlossary;

function start(): TranslationService {
  const provider = openAiProviderFor(server);
  service = createTranslationService({
    config: { LANGUAGES: ['en', 'ja'] },
    provider,
    output,
    store,
    meter: new MemoryMeter(),
    glossary: {
      forRoom: async () => ({ termsFor: (text, target) => termsFor(glossary, text, target) }),
    },
    logger: recordingLogger().logger,
    options: { speech: false, notes: false, contextMessages: 0 },
  });
  return service;
}

let nextId = 1_700_000_000_000;
function message(text: string, language = 'en'): MessageFrame {
  nextId += 1;
  return {
    type: 'message',
    id: nextId,
    username: 'alice',
    message: text,
    language,
    timestamp: nextId,
    translations: {},
    isTutorial: false,
  };
}

const systemPrompts = () =>
  server
    .chatRequests()
    .map((r) => r.body.messages as { role: string; content: string }[])
    .filter((messages) => !isNoteRequest(messages))
    .map((messages) => messages.find((m) => m.role === 'system')?.content ?? '');

beforeEach(async () => {
  server = await startFakeOpenAiServer();
  output = new MemoryRoomOutput();
  store = new MemoryTranslationStore();
  glossary = {
    entries: [
      { id: '1', term: 'Kite', language: 'en', renderings: { ja: 'Kite' } },
      { id: '2', term: 'Kite Runner', language: 'en', renderings: { ja: 'カイトランナー' } },
      { id: '3', term: '翔太', language: 'ja', renderings: { en: 'Shota' } },
      { id: '4', term: 'Bonsai', language: 'en', renderings: { ja: '盆栽' } },
    ],
    names: ['Miyu'],
  };
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  await server.close();
});

describe('the glossary with the openai provider', () => {
  it('carries exactly the terms that occur, longest first, with their renderings', async () => {
    const svc = start();
    const first = message('Miyu read kite runner and flew a KITE');
    svc.onMessage(ROOM, first, { userId: 'u1' });
    await vi.waitFor(() => expect(output.framesOf('translationComplete')).toHaveLength(1), {
      timeout: 10_000,
    });
    const [prompt] = systemPrompts();
    expect(prompt).toContain(`"Kite Runner" -> "カイトランナー"`);
    expect(prompt).toContain(`"Kite" -> "Kite"`);
    expect(prompt).toContain(`"Miyu" -> "Miyu"`);
    expect(prompt!.indexOf('"Kite Runner"')).toBeLessThan(prompt!.indexOf('"Kite" ->'));
    // never the whole glossary
    expect(prompt).not.toContain('Bonsai');
    expect(prompt).not.toContain('翔太');

    const japanese = message('翔太さんが来ました', 'ja');
    svc.onMessage(ROOM, japanese, { userId: 'u2' });
    await vi.waitFor(() => expect(output.framesOf('translationComplete')).toHaveLength(2), {
      timeout: 10_000,
    });
    expect(systemPrompts()[1]).toContain(`"翔太" -> "Shota"`);
  });

  it('a message without a term carries no glossary', async () => {
    const svc = start();
    svc.onMessage(ROOM, message('the weather is nice (kites are not)'), { userId: 'u1' });
    await vi.waitFor(() => expect(output.framesOf('translationComplete')).toHaveLength(1), {
      timeout: 10_000,
    });
    const [prompt] = systemPrompts();
    expect(prompt).toMatch(/into Japanese/);
    expect(prompt).not.toMatch(/glossary/i);
  });
});

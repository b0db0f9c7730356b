import { beforeEach, describe, expect, it, vi } from 'vitest';
import { termsFor, type RoomGlossary } from '../glossary/index.js';
import { openAiServiceTest } from './testing/openai-service.js';

/*
 * The room glossary in the translation request, against a fake OpenAI-compatible server over real
 * HTTP/SSE: a message that holds a term (or a member's name) carries exactly those with their renderings,
 * one that holds none carries no glossary at all.
 */

const t = openAiServiceTest();
const ROOM = 'ROOM1';
let glossary: RoomGlossary;

const start = () =>
  t.start({ speech: false, notes: false, contextMessages: 0 }, ['en', 'ja'], {
    glossary: { forRoom: async () => ({ termsFor: (text, target) => termsFor(glossary, text, target) }) },
  });

const systemPrompts = () =>
  t
    .translationRequests()
    .map((r) => (r.body.messages as { role: string; content: string }[]).find((m) => m.role === 'system'))
    .map((system) => system?.content ?? '');

beforeEach(() => {
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

describe('the glossary with the openai provider', () => {
  it('carries exactly the terms that occur, longest first, with their renderings', async () => {
    const svc = start();
    const first = t.message('Miyu read kite runner and flew a KITE');
    svc.onMessage(ROOM, first, { userId: 'u1' });
    await vi.waitFor(() => expect(t.output.framesOf('translationComplete')).toHaveLength(1), {
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

    const japanese = t.message('翔太さんが来ました', { language: 'ja' });
    svc.onMessage(ROOM, japanese, { userId: 'u2' });
    await vi.waitFor(() => expect(t.output.framesOf('translationComplete')).toHaveLength(2), {
      timeout: 10_000,
    });
    expect(systemPrompts()[1]).toContain(`"翔太" -> "Shota"`);
  });

  it('a message without a term carries no glossary', async () => {
    const svc = start();
    svc.onMessage(ROOM, t.message('the weather is nice (kites are not)'), { userId: 'u1' });
    await vi.waitFor(() => expect(t.output.framesOf('translationComplete')).toHaveLength(1), {
      timeout: 10_000,
    });
    const [prompt] = systemPrompts();
    expect(prompt).toMatch(/into Japanese/);
    expect(prompt).not.toMatch(/glossary/i);
  });
});

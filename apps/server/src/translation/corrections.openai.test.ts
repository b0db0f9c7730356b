import { describe, expect, it, vi } from 'vitest';
import { isNoteRequest } from '../ai/testing/fake-openai-server.js';
import { openAiServiceTest } from './testing/openai-service.js';

/*
 * Corrections in the translation service against a fake OpenAI-compatible server over real HTTP/SSE:
 * the old work is stopped and never lands, the new text is translated, hinted and spoken, and charged.
 */

const t = openAiServiceTest();
const ROOM = 'ROOM1';
const author = { userId: 'user-alice' };

describe('corrections with the openai provider', () => {
  it('stops the old translation mid-stream; the new text is translated, hinted, spoken and charged', async () => {
    // the old text streams slowly (the correction arrives in the middle); everything else as usual
    t.server.onChat = (body) => {
      const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
      if (isNoteRequest(body.messages) || !user.includes('stale')) return undefined;
      return { kind: 'stream', pieces: Array.from({ length: 40 }, (_, i) => `stale${i} `), delayMs: 25 };
    };
    const svc = t.start({ callTimeoutMs: 5_000 });
    const original = t.message('a stale sentence to translate');
    t.store.add(ROOM, original);
    svc.onMessage(ROOM, original, author);
    await vi.waitFor(() => expect(t.output.framesOf('translationChunk').length).toBeGreaterThan(0));

    const edited = t.store.edit(ROOM, original.id, 'a fresh idiom, break a leg');
    const editedAt = t.output.frames.length;
    svc.onEdited(ROOM, edited, author);

    await vi.waitFor(() => expect(t.store.notes).toHaveLength(1), { timeout: 5_000 });
    await vi.waitFor(() => expect(t.output.audio).toHaveLength(1), { timeout: 5_000 });
    const complete = t.output.framesOf('translationComplete');
    expect(complete.map((f) => f.fullText)).toEqual(['ja: a fresh idiom, break a leg']);
    expect(t.store.translations.map((t) => t.text)).toEqual(['ja: a fresh idiom, break a leg']);
    expect(t.store.notes[0]?.note).toMatch(/idiom/);
    // nothing of the old work after the correction: no chunk, no completion, no audio
    const after = t.output.frames.slice(editedAt).map((entry) => JSON.stringify(entry.frame));
    expect(after.join('\n')).not.toMatch(/stale/);
    const spoken = t.server.requests.filter((r) => r.path === '/v1/audio/speech');
    expect(spoken.map((r) => r.body.input)).toEqual(['ja: a fresh idiom, break a leg']);
    // the old call was charged, then refunded (stopped work is not paid for); the new work is charged
    const translations = t.meter.charges.filter((c) => c.task === 'translation');
    expect(translations.map((c) => c.characters)).toEqual([
      'a stale sentence to translate'.length,
      'a fresh idiom, break a leg'.length,
    ]);
    expect(t.meter.refunds.map((c) => c.characters)).toEqual(['a stale sentence to translate'.length]);
    expect(t.meter.charges.filter((c) => c.task === 'speech')).toHaveLength(1);
  });

  it('a correction of a message still waiting in the queue replaces it there', async () => {
    const svc = t.start({ callTimeoutMs: 5_000 });
    const original = t.message('first words');
    t.store.add(ROOM, original);
    svc.onMessage(ROOM, original, author);
    const edited = t.store.edit(ROOM, original.id, 'second words');
    svc.onEdited(ROOM, edited, author); // in the same tick: the first job has not reached an engine yet
    await vi.waitFor(() => expect(t.output.audio).toHaveLength(1), { timeout: 5_000 });
    expect(t.output.framesOf('translationComplete').map((f) => f.fullText)).toEqual(['ja: second words']);
    expect(JSON.stringify(t.output.frames)).not.toMatch(/first words/);
    expect(t.meter.charges.filter((c) => c.task === 'translation')).toHaveLength(1);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { defaultTranslation, isNoteRequest } from '../ai/testing/fake-openai-server.js';
import { openAiServiceTest } from './testing/openai-service.js';

/*
 * An engine that fails: a call retried with backoff, a stream that drops resumed without re-streaming, a
 * failure for good told to the room once, a call that never answers timed out, through the real `openai` SDK.
 */

const t = openAiServiceTest();

describe('the translation service with the openai provider: engine failures', () => {
  it('retries a failed provider call with backoff, then succeeds; the room sees no notice', async () => {
    let calls = 0;
    t.server.onChat = (body) => {
      if (isNoteRequest(body.messages)) return undefined;
      calls += 1;
      return calls === 1 ? { kind: 'status', status: 503 } : undefined;
    };
    const svc = t.start({ speech: false, notes: false });
    const m = t.message('Hello again');
    t.post(svc, 'ROOM1', m);
    await vi.waitFor(() => expect(t.store.translations).toHaveLength(1));
    expect(t.translationRequests()).toHaveLength(2);
    expect(t.store.translations[0]?.text).toBe('ja: Hello again');
    expect(t.notices()).toEqual([]);
    expect(t.meter.charges.filter((c) => c.task === 'translation')).toHaveLength(1);
  });

  it('a stream that drops mid-way is retried without re-streaming, and the completion replaces the pieces', async () => {
    let calls = 0;
    t.server.onChat = (body) => {
      if (isNoteRequest(body.messages)) return undefined;
      calls += 1;
      return calls === 1
        ? { kind: 'stream', pieces: defaultTranslation(body.messages), failAfter: 2 }
        : undefined;
    };
    const svc = t.start({ speech: false, notes: false });
    const m = t.message('one two three four');
    t.post(svc, 'ROOM1', m);
    await vi.waitFor(() => expect(t.store.translations).toHaveLength(1));
    expect(t.output.framesOf('translationChunk').map((c) => c.chunk)).toEqual(['ja: ', 'one ']);
    expect(t.output.framesOf('translationComplete')[0]?.fullText).toBe('ja: one two three four');
  });

  it('a permanent failure gives the room ONE notice; the message keeps the translations that worked', async () => {
    t.server.onChat = (body) => {
      if (isNoteRequest(body.messages)) return undefined;
      const system = body.messages[0]?.content ?? '';
      return system.includes('(fr)') ? { kind: 'status', status: 500, message: 'overloaded' } : undefined;
    };
    const svc = t.start({ speech: false, notes: false, attempts: 3 }, ['en', 'ja', 'fr']);
    const first = t.message('First message');
    const second = t.message('Second message');
    t.post(svc, 'ROOM1', first);
    t.post(svc, 'ROOM1', second);
    await vi.waitFor(() => expect(t.store.translations).toHaveLength(2));
    await svc.close();
    expect(t.store.translations.map((stored) => stored.language)).toEqual(['ja', 'ja']);
    const frTranslationRequests = t
      .translationRequests()
      .filter((r) => JSON.stringify(r.body.messages).includes('(fr)'));
    expect(frTranslationRequests).toHaveLength(6); // 3 attempts per message, bounded
    expect(t.notices()).toHaveLength(1);
    expect(t.notices()[0]?.message).toMatch(
      /Translation into French failed: the AI engine answered HTTP 500/,
    );
    expect(t.notices()[0]?.notice).toEqual({
      kind: 'engine_failed',
      // the notice names its cause, so the web app says why (the engine's HTTP status here)
      params: { task: 'translation', language: 'fr', cause: 'status', status: 500 },
    });
    // one notice for the room, but each failed translation is ended, so no listener keeps its chunks
    // (the two messages are translated at the same time: their failures may come in either order)
    const failed = t.output.framesOf('translationFailed');
    expect(failed.sort((a, b) => a.originalTimestamp - b.originalTimestamp)).toEqual([
      { type: 'translationFailed', originalTimestamp: first.id, targetLanguage: 'fr' },
      { type: 'translationFailed', originalTimestamp: second.id, targetLanguage: 'fr' },
    ]);
    expect(t.log.lines.some((l) => l.level === 'error' && l.msg.includes('translation failed'))).toBe(true);
  });

  it('times out a provider that never answers, retries within bounds, then tells the room', async () => {
    t.server.onChat = (body) => (isNoteRequest(body.messages) ? undefined : { kind: 'hang' });
    const svc = t.start({ speech: false, notes: false, callTimeoutMs: 150, attempts: 2 });
    const started = Date.now();
    t.post(svc, 'ROOM1', t.message('Are you there?'));
    await vi.waitFor(() => expect(t.notices()).toHaveLength(1), { timeout: 3_000 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(t.translationRequests()).toHaveLength(2);
    expect(t.notices()[0]?.message).toContain('did not answer in time');
    expect(t.store.translations).toEqual([]);
  });
});

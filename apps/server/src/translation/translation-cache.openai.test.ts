import { describe, expect, it, vi } from 'vitest';
import { openAiServiceTest } from './testing/openai-service.js';

/*
 * The cache of translations and speech: the same message in the same context costs no engine call and
 * no charge; another context is a miss.
 */

const t = openAiServiceTest();

describe('the translation service with the openai provider: the translation cache', () => {
  it('serves a second identical message (same languages, same context) from the cache, with no provider call', async () => {
    const svc = t.start({ notes: true });
    t.post(svc, 'ROOM1', t.message('Nice to meet you'));
    await vi.waitFor(() => expect(t.output.audio).toHaveLength(1));
    await vi.waitFor(() => expect(t.noteRequests()).toHaveLength(1));
    const requestsBefore = t.server.requests.length;
    const chargesBefore = t.meter.charges.length;

    const again = t.message('Nice to meet you');
    t.post(svc, 'ROOM2', again); // another room with the same (empty) context
    await vi.waitFor(() => expect(t.output.audio).toHaveLength(2));
    await vi.waitFor(() => expect(t.store.translations).toHaveLength(2));
    expect(t.server.requests.length).toBe(requestsBefore);
    expect(t.meter.charges.length).toBe(chargesBefore);
    expect(t.output.framesOf('translationComplete', 'ROOM2')[0]?.fullText).toBe('ja: Nice to meet you');
    expect(
      t.output
        .framesOf('translationChunk', 'ROOM2')
        .map((c) => c.chunk)
        .join(''),
    ).toBe('ja: Nice to meet you');
  });

  it('a different context is a cache miss', async () => {
    const svc = t.start({ notes: false, speech: false });
    t.post(svc, 'ROOM1', t.message('Nice to meet you'));
    await vi.waitFor(() => expect(t.store.translations).toHaveLength(1));
    t.store.add('ROOM2', t.message('I am Ken', { username: 'ken' }));
    t.post(svc, 'ROOM2', t.message('Nice to meet you'));
    await vi.waitFor(() => expect(t.store.translations).toHaveLength(2));
    expect(t.translationRequests()).toHaveLength(2);
  });
});
